import type { AwsState } from "../state/model";
import { AwsError } from "./common";
import { effectiveDeclarative, exceptionMessage } from "./declarative-effective";

/** The instance metadata options a RunInstances request states (absent when it does not). */
export interface MetadataRequest {
  httpTokens: string | null;
  httpEndpoint: string | null;
  hopLimit: string | null;
  instanceMetadataTags: string | null;
}

/**
 * The refusal EC2 answers a launch that the account's effective declarative policy does not allow
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html,
 * "Instance Metadata Defaults"), carrying the policy's `exception_message`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative.html).
 *
 * Where AWS applies the policy's value as the instance's default, the sandbox is stricter: a request
 * that does not state the value the policy sets (e.g. no `HttpTokens=required` when the policy sets
 * `http_tokens` to `required`) is refused, so the guardrail is visible at the call. `no_preference`
 * (and a hop limit of -1) sets nothing. The error code is EC2's `UnauthorizedOperation`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
 */
export function declarativeRefusal(
  aws: AwsState,
  accountId: string,
  request: MetadataRequest,
): AwsError | undefined {
  const effective = effectiveDeclarative(aws, accountId);
  if (effective.size === 0) return undefined;
  const imds = (field: string) => {
    const v = effective.get(`instance_metadata_defaults.${field}`);
    return v === undefined || v === "no_preference" ? undefined : String(v);
  };
  const violations: string[] = [];
  const tokens = imds("http_tokens");
  if (tokens === "required" && request.httpTokens !== "required")
    violations.push("MetadataOptions.HttpTokens must be required");
  if (tokens === "optional" && request.httpTokens === "required")
    violations.push("MetadataOptions.HttpTokens must be optional");
  const endpoint = imds("http_endpoint");
  if (endpoint && (request.httpEndpoint ?? "enabled") !== endpoint)
    violations.push(`MetadataOptions.HttpEndpoint must be ${endpoint}`);
  const tags = imds("instance_metadata_tags");
  if (tags && (request.instanceMetadataTags ?? "disabled") !== tags)
    violations.push(`MetadataOptions.InstanceMetadataTags must be ${tags}`);
  const hops = imds("http_put_response_hop_limit");
  if (hops && hops !== "-1" && Number(request.hopLimit ?? 1) > Number(hops))
    violations.push(`MetadataOptions.HttpPutResponseHopLimit must be at most ${hops}`);
  if (violations.length === 0) return undefined;
  return new AwsError(
    "UnauthorizedOperation",
    `${exceptionMessage(effective)} (declarative policy: ${violations.join("; ")})`,
    403,
  );
}
