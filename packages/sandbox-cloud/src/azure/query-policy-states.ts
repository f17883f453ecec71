import type { SandboxRequest, SandboxResponse } from "../http/types";
import { type ArmContext, armError, armOk } from "./arm-http";
import { isAtOrBelow, resolveScope } from "./scopes";

export function queryPolicyStates(ctx: ArmContext, req: SandboxRequest, rawScope: string): SandboxResponse {
  const azure = ctx.store.state.azure;
  const scope = resolveScope(azure, rawScope);
  if (!scope) return armError(404, "ResourceNotFound", `The scope '${rawScope}' was not found.`);
  const filter = req.query.get("$filter") ?? "";
  const eq = [...filter.matchAll(/(\w+)\s+eq\s+'([^']*)'/gi)].map(
    (m) => [m[1]!, m[2]!.toLowerCase()] as const,
  );
  const from = Date.parse(req.query.get("$from") ?? "") || ctx.store.now().getTime() - 86_400_000;
  const to = Date.parse(req.query.get("$to") ?? "") || ctx.store.now().getTime();
  const top = Number(req.query.get("$top") ?? 1000);
  const latest = new Map<string, (typeof azure.policyStates)[number]>();
  for (const s of azure.policyStates) {
    const t = Date.parse(s.timestamp);
    if (t < from || t > to || !isAtOrBelow(azure, s.resourceId, scope)) continue;
    latest.set(`${s.resourceId.toLowerCase()}|${s.policyAssignmentId.toLowerCase()}`, s);
  }
  const value = [...latest.values()]
    .filter((s) =>
      eq.every(([k, v]) => String((s as unknown as Record<string, unknown>)[k] ?? "").toLowerCase() === v),
    )
    .reverse()
    .slice(0, Number.isFinite(top) && top > 0 ? top : 1000)
    .map((s) => ({
      "@odata.id": null,
      "@odata.context": `${ctx.baseUrl}/providers/Microsoft.PolicyInsights/policyStates/$metadata#latest/$entity`,
      ...s,
    }));
  return armOk({
    "@odata.context": `${ctx.baseUrl}/providers/Microsoft.PolicyInsights/policyStates/$metadata#latest`,
    "@odata.count": value.length,
    value,
  });
}
