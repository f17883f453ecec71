import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import type { SandboxRequest, SandboxResponse } from "../http/types";
import type { AzureState } from "../state/model";
import { armError, armOk } from "./arm-http";
import { mgId } from "./scopes";

/** The resource types the sandbox serves itself, beyond those the catalogue's aliases name. */
const SERVED_TYPES = [
  "Microsoft.Authorization/policyDefinitions",
  "Microsoft.Authorization/policyAssignments",
  "Microsoft.Authorization/policyExemptions",
  "Microsoft.Insights/eventtypes",
  "Microsoft.Management/managementGroups",
  "Microsoft.PolicyInsights/policyStates",
  "Microsoft.Resources/resourceGroups",
  "Microsoft.Resources/subscriptions",
];

const PROVIDER_PATH =
  /^(?:\/subscriptions\/([^/]+)|\/providers\/Microsoft\.Management\/managementGroups\/([^/]+))?\/providers\/([^/]+)(\/register)?$/i;

/**
 * Resource providers: `Providers - Get` and `Providers - Register` at a subscription, `Providers -
 * Get At Tenant Scope` and `Providers - Register At Management Group Scope`
 * (https://learn.microsoft.com/en-us/rest/api/resources/providers). Every provider the sandbox
 * serves is registered; registering one answers it as registered, as ARM does once it completes.
 * `az account management-group list` registers Microsoft.Management first and polls it.
 */
export function resourceProvider(
  azure: AzureState,
  req: SandboxRequest,
  path: string,
  aliases: AliasTable,
): SandboxResponse | undefined {
  const m = PROVIDER_PATH.exec(path);
  if (!m) return undefined;
  const [, subscriptionId, groupName, rawNamespace, register] = m;
  // Registering is documented at a subscription and at a management group, reading at a
  // subscription and at the tenant.
  const allowed = register
    ? req.method === "POST" && (subscriptionId !== undefined || groupName !== undefined)
    : req.method === "GET" && groupName === undefined;
  if (!allowed) {
    return armError(405, "MethodNotAllowed", `The sandbox does not support ${req.method} on '${path}'.`);
  }
  const types = [...SERVED_TYPES, ...Object.keys(aliases)];
  const namespace = types
    .map((t) => t.slice(0, t.indexOf("/")))
    .find((n) => n.toLowerCase() === rawNamespace!.toLowerCase());
  if (!namespace) {
    return armError(404, "InvalidResourceNamespace", `The resource namespace '${rawNamespace}' is invalid.`);
  }
  let prefix = "";
  if (subscriptionId !== undefined) {
    const sub = azure.subscriptions.find(
      (s) => s.subscriptionId.toLowerCase() === subscriptionId.toLowerCase(),
    );
    if (!sub)
      return armError(
        404,
        "SubscriptionNotFound",
        `The subscription '${subscriptionId}' could not be found.`,
      );
    prefix = `/subscriptions/${sub.subscriptionId}`;
  }
  if (groupName !== undefined) {
    const group = azure.managementGroups.find((g) => g.name.toLowerCase() === groupName.toLowerCase());
    if (!group) {
      return armError(
        404,
        "ManagementGroupNotFound",
        `The management group '${groupName}' could not be found.`,
      );
    }
    prefix = mgId(group.name);
  }
  const resourceTypes = [
    ...new Set(types.filter((t) => t.toLowerCase().startsWith(`${namespace.toLowerCase()}/`))),
  ].map((t) => ({ resourceType: t.slice(namespace.length + 1), locations: [], apiVersions: [] }));
  return armOk({
    id: `${prefix}/providers/${namespace}`,
    namespace,
    // The tenant's view of a provider has no registration state.
    ...(prefix ? { registrationState: "Registered", registrationPolicy: "RegistrationRequired" } : {}),
    resourceTypes,
  });
}
