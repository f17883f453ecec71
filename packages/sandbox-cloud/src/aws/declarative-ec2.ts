import {
  type DeclarativeRequest,
  declarativeViolations,
} from "@palisade/policy-engine/evaluators/declarative/declarative-request";
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

/** A RunInstances request's metadata options as the shared evaluator names them (EC2's Query parameters). */
export function runInstancesRequest(request: MetadataRequest): DeclarativeRequest {
  const parameters: Record<string, string> = {};
  if (request.httpTokens !== null) parameters["MetadataOptions.HttpTokens"] = request.httpTokens;
  if (request.httpEndpoint !== null) parameters["MetadataOptions.HttpEndpoint"] = request.httpEndpoint;
  if (request.hopLimit !== null) parameters["MetadataOptions.HttpPutResponseHopLimit"] = request.hopLimit;
  if (request.instanceMetadataTags !== null)
    parameters["MetadataOptions.InstanceMetadataTags"] = request.instanceMetadataTags;
  return { action: "ec2:RunInstances", parameters };
}

/**
 * The refusal EC2 answers a request that the account's effective declarative policy does not allow
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html,
 * "Instance Metadata Defaults"), carrying the policy's `exception_message`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative.html).
 * The evaluation is the catalogue's own (policy-engine's declarativeViolations), stricter than AWS
 * where AWS would apply the policy's value as a default. The error code is EC2's
 * `UnauthorizedOperation` (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
 */
export function declarativeRefusal(
  aws: AwsState,
  accountId: string,
  request: MetadataRequest | DeclarativeRequest,
): AwsError | undefined {
  const effective = effectiveDeclarative(aws, accountId);
  if (effective.size === 0) return undefined;
  // A launch's image is judged by allowedImageRefusal, which knows from the sandbox's state who
  // provides each image (the account's own AMIs are always allowed); here only the launch's
  // metadata options are.
  const judged =
    "action" in request
      ? effective
      : new Map([...effective].filter(([path]) => !path.startsWith("allowed_images_settings.")));
  const violations = declarativeViolations(
    judged,
    "action" in request ? request : runInstancesRequest(request),
  );
  if (violations.length === 0) return undefined;
  return new AwsError(
    "UnauthorizedOperation",
    `${exceptionMessage(effective)} (declarative policy: ${violations.join("; ")})`,
    403,
  );
}
