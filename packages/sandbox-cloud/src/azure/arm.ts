import type { SandboxRequest, SandboxResponse } from "../http/types";
import { readHierarchy } from "./arm-hierarchy";
import { type ArmContext, armError } from "./arm-http";
import { deleteResourceGroup } from "./delete-resource-group";
import { listActivityLog } from "./list-activity-log";
import { authorization } from "./policy-authorization";
import { AUTH_COLLECTIONS } from "./policy-collections";
import { queryPolicyStates } from "./query-policy-states";

export function handleArm(ctx: ArmContext, req: SandboxRequest): SandboxResponse {
  const path = req.path.replace(/\/+$/, "");
  if (!req.query.get("api-version")) {
    return armError(
      400,
      "MissingApiVersionParameter",
      "The api-version query parameter (?api-version=) is required for all requests.",
    );
  }

  const auth =
    /^(.*)\/providers\/Microsoft\.Authorization\/(policyDefinitions|policyAssignments|policyExemptions)(?:\/([^/]+))?$/i.exec(
      path,
    );
  if (auth) {
    const collection = AUTH_COLLECTIONS[auth[2]!.toLowerCase() as keyof typeof AUTH_COLLECTIONS];
    return authorization(
      ctx,
      req,
      auth[1] ?? "",
      collection,
      auth[3] ? decodeURIComponent(auth[3]) : undefined,
    );
  }
  const states =
    /^(.*)\/providers\/Microsoft\.PolicyInsights\/policyStates\/(latest|default)\/queryResults$/i.exec(path);
  if (states && req.method === "POST") return queryPolicyStates(ctx, req, states[1]!);
  // A query, its next links included, is a POST; Azure refuses the GET some SDKs send for the next
  // page (https://github.com/Azure/azure-sdk-for-python/issues/17280).
  if (states) {
    return armError(
      405,
      "HttpMethodNotSupported",
      `The http method '${req.method}' is not supported for 'queryResults'.`,
    );
  }
  const activity =
    /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.Insights\/eventtypes\/management\/values$/i.exec(path);
  if (activity && req.method === "GET") return listActivityLog(ctx, req, activity[1]!);

  const group = /^\/subscriptions\/([^/]+)\/resourcegroups\/([^/]+)$/i.exec(path);
  if (group && req.method === "DELETE") return deleteResourceGroup(ctx, group[1]!, group[2]!);

  return readHierarchy(ctx, req, path);
}
