import {
  type DeclarativeRequest,
  declarativeViolations,
} from "@palisade/policy-engine/evaluators/declarative/declarative-request";
import type { AwsState } from "../state/model";
import { AwsError } from "./common";
import { type EffectiveDeclarative, exceptionMessage } from "./declarative-effective";
import { imageProvider } from "./ec2-allowed-images";

/** The instance metadata options a RunInstances request states (absent when it does not). */
export interface MetadataRequest {
  httpTokens: string | null;
  httpEndpoint: string | null;
  hopLimit: string | null;
  instanceMetadataTags: string | null;
}

/**
 * A RunInstances request as the shared evaluator sees it: its metadata options (EC2's Query
 * parameters), its image with the image's provider as far as the sandbox knows it (see
 * imageProvider), and the launching account, whose own AMIs are always allowed.
 */
export function runInstancesRequest(
  aws: AwsState,
  accountId: string,
  request: MetadataRequest,
  imageId: string | undefined,
): DeclarativeRequest {
  const parameters: Record<string, string> = {};
  if (request.httpTokens !== null) parameters["MetadataOptions.HttpTokens"] = request.httpTokens;
  if (request.httpEndpoint !== null) parameters["MetadataOptions.HttpEndpoint"] = request.httpEndpoint;
  if (request.hopLimit !== null) parameters["MetadataOptions.HttpPutResponseHopLimit"] = request.hopLimit;
  if (request.instanceMetadataTags !== null)
    parameters["MetadataOptions.InstanceMetadataTags"] = request.instanceMetadataTags;
  if (imageId !== undefined) {
    parameters.ImageId = imageId;
    const provider = imageProvider(aws, imageId);
    if (provider !== undefined) parameters.ImageProvider = provider;
  }
  return { action: "ec2:RunInstances", parameters, account: accountId };
}

/**
 * The refusal EC2 answers a request that the account's effective declarative policy does not allow
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html:
 * "Instance Metadata Defaults", Allowed AMIs, and the account-level settings the policy sets, which
 * "account administrators will not be able to modify"), carrying the policy's `exception_message`
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative.html).
 * The evaluation is the catalogue's own (policy-engine's declarativeViolations), stricter than AWS
 * where AWS would apply the policy's value as a default. The documentation names no error code for
 * these refusals; the sandbox answers EC2's `UnauthorizedOperation`
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
 */
export function declarativeRefusal(
  effective: EffectiveDeclarative,
  request: DeclarativeRequest,
): AwsError | undefined {
  const violations = declarativeViolations(effective, request);
  if (violations.length === 0) return undefined;
  return new AwsError(
    "UnauthorizedOperation",
    `${exceptionMessage(effective)} (declarative policy: ${violations.join("; ")})`,
    403,
  );
}
