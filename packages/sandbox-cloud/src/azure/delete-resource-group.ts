import type { SandboxResponse } from "../http/types";
import { recordActivity } from "./activity-log";
import { type ArmContext, armError } from "./arm-http";
import { resolveScope, sameScope } from "./scopes";

function removeWhere<T>(list: T[], gone: (item: T) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (gone(list[i]!)) list.splice(i, 1);
}

/**
 * DELETE of a resource group, as someone deleting it in the portal: its resources and the policy
 * assignments and exemptions at or below it go with it, so policy writes there answer
 * ResourceGroupNotFound afterwards.
 */
export function deleteResourceGroup(ctx: ArmContext, subscriptionId: string, name: string): SandboxResponse {
  const azure = ctx.store.state.azure;
  const groupId = resolveScope(azure, `/subscriptions/${subscriptionId}/resourceGroups/${name}`);
  if (!groupId) return armError(404, "ResourceGroupNotFound", `Resource group '${name}' could not be found.`);
  const inside = (id: string) =>
    sameScope(id, groupId) || id.toLowerCase().startsWith(`${groupId.toLowerCase()}/`);
  removeWhere(azure.resourceGroups, (g) =>
    sameScope(`/subscriptions/${g.subscriptionId}/resourceGroups/${g.name}`, groupId),
  );
  removeWhere(azure.resources, (r) => inside(r.id));
  removeWhere(azure.policyAssignments, (a) => inside(a.id));
  removeWhere(azure.policyExemptions, (e) => inside(e.id));
  ctx.store.changed();
  recordActivity(ctx.store, {
    resourceId: groupId,
    operationName: "Microsoft.Resources/subscriptions/resourceGroups/delete",
    caller: ctx.claims.appid || ctx.claims.name,
    callerObjectId: ctx.claims.oid,
    status: "Succeeded",
    method: "DELETE",
  });
  return { status: 200 };
}
