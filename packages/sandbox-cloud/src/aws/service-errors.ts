import { randomBytes } from "node:crypto";
import { AwsError } from "./common";

/** Services on the query and REST-XML protocols (botocore's service models): their denial is `AccessDenied`. */
const ACCESS_DENIED_SERVICES = new Set([
  "s3",
  "iam",
  "sts",
  "rds",
  "route53",
  "cloudfront",
  "autoscaling",
  "cloudformation",
  "cloudsearch",
  "elasticache",
  "elasticbeanstalk",
  "elasticloadbalancing",
  "importexport",
  "redshift",
  "sdb",
  "ses",
  "sns",
]);

export interface Denial {
  /** The error code the API answers with. */
  code: string;
  /** The error code CloudTrail records (EC2 prefixes its client errors with `Client.`). */
  recordedCode: string;
  message: string;
  /** The JSON protocols' `__type`; absent for query, EC2 and REST-XML services. */
  jsonType?: string;
}

/**
 * How a service refuses a call an SCP denies. The message names the caller, the action, the
 * resource and, for a denial within the caller's own organisation, the policy's ARN
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html). EC2 answers
 * `UnauthorizedOperation` with an encoded authorization message and CloudTrail records
 * `Client.UnauthorizedOperation` (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html);
 * query and REST-XML services answer `AccessDenied` (S3 quoting the resource); JSON services
 * `AccessDeniedException`.
 */
export function scpDenial(input: {
  callerArn: string;
  action: string;
  resource: string;
  /** The denying SCP's ARN; undefined when no SCP allows the action (an implicit deny). */
  policyArn: string | undefined;
  /** The type of the denying policy: service control policy unless a resource control policy denied. */
  policyType?: "SERVICE_CONTROL_POLICY" | "RESOURCE_CONTROL_POLICY";
}): Denial {
  const service = input.action.split(":")[0] ?? "";
  const resource = service === "s3" ? `"${input.resource}"` : input.resource;
  // "... with an explicit deny in a resource control policy" names RCP denials the way SCP ones are
  // named (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html).
  const kind =
    input.policyType === "RESOURCE_CONTROL_POLICY" ? "resource control policy" : "service control policy";
  const reason = input.policyArn
    ? `with an explicit deny in a ${kind}: ${input.policyArn}`
    : `because no ${kind} allows the ${input.action} action`;
  const detail = `User: ${input.callerArn} is not authorized to perform: ${input.action} on resource: ${resource} ${reason}`;
  if (service === "ec2") {
    // The encoded message is opaque to the caller; sts:DecodeAuthorizationMessage reads it.
    const encoded = randomBytes(192).toString("base64url");
    return {
      code: "UnauthorizedOperation",
      recordedCode: "Client.UnauthorizedOperation",
      message: `You are not authorized to perform this operation. ${detail}. Encoded authorization failure message: ${encoded}`,
    };
  }
  if (ACCESS_DENIED_SERVICES.has(service))
    return { code: "AccessDenied", recordedCode: "AccessDenied", message: detail };
  return {
    code: "AccessDeniedException",
    recordedCode: "AccessDeniedException",
    message: detail,
    jsonType: "AccessDeniedException",
  };
}

/** The denial as the service answers it: 403 with the service's code and message. */
export function scpDenialError(denial: Denial): AwsError {
  return new AwsError(denial.code, denial.message, 403);
}
