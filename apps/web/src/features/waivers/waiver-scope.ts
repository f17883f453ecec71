import type { WaiverScopeJson } from "./api/waiver-rpc";

const typeLabels: Record<string, string> = {
  SCOPE_TYPE_AWS_ACCOUNT: "Account",
  SCOPE_TYPE_AZURE_SUBSCRIPTION: "Subscription",
  SCOPE_TYPE_AZURE_RESOURCE_GROUP: "Resource group",
};

/** How a scope reads in the picker: its name, what it is, and where it sits, e.g. "payments-prod (Account in Workloads-Prod)". */
export function waiverScopeLabel(scope: WaiverScopeJson): string {
  const kind = typeLabels[scope.type ?? ""] ?? "Scope";
  const name = scope.name || scope.externalId || "";
  return scope.parentName ? `${name} (${kind} in ${scope.parentName})` : `${name} (${kind})`;
}
