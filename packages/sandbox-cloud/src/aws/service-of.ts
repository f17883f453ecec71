import { header, type SandboxRequest } from "../http/types";
import { parseAuthorization } from "./sigv4";

/**
 * The AWS service a request is for: the service of its SigV4 credential scope
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html),
 * or, for an unsigned request, the one its protocol names (an X-Amz-Target, a query-protocol form).
 */
export function awsServiceOf(req: SandboxRequest): string | undefined {
  const scoped = parseAuthorization(header(req, "authorization"))?.service;
  if (scoped) return scoped;
  if (req.method !== "POST" || (req.path !== "/" && req.path !== "") || header(req, "authorization")) {
    return undefined;
  }
  const target = header(req, "x-amz-target") ?? "";
  if (target.startsWith("AWSOrganizationsV20161128.")) return "organizations";
  if (target.startsWith("com.amazonaws.cloudtrail.") || target.startsWith("CloudTrail_")) return "cloudtrail";
  if (target) return target.split(".")[0];
  return (header(req, "content-type") ?? "").includes("x-www-form-urlencoded") ? "sts" : undefined;
}
