import type { SandboxRequest, SandboxResponse } from "../http/types";
import { type ArmContext, armError } from "./arm-http";
import { armPage } from "./paging";
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
  const topText = req.query.get("$top");
  const top = topText === null ? undefined : Number(topText);
  if (top !== undefined && !(Number.isInteger(top) && top >= 0)) {
    return armError(
      400,
      "InvalidQueryParameterValue",
      `The value '${topText}' of $top is not a non-negative integer.`,
    );
  }
  const latest = new Map<string, (typeof azure.policyStates)[number]>();
  for (const s of azure.policyStates) {
    const t = Date.parse(s.timestamp);
    if (t < from || t > to || !isAtOrBelow(azure, s.resourceId, scope)) continue;
    latest.set(`${s.resourceId.toLowerCase()}|${s.policyAssignmentId.toLowerCase()}`, s);
  }
  const context = `${ctx.baseUrl}/providers/Microsoft.PolicyInsights/policyStates/$metadata#latest`;
  const value = [...latest.values()]
    .filter((s) =>
      eq.every(([k, v]) => String((s as unknown as Record<string, unknown>)[k] ?? "").toLowerCase() === v),
    )
    .reverse()
    .map((s) => ({ "@odata.id": null, "@odata.context": `${context}/$entity`, ...s }));
  // At most 1,000 states a page; `$top` bounds the whole query; the next page is a POST to
  // `@odata.nextLink` (https://learn.microsoft.com/en-us/rest/api/policy/policy-states/next-link).
  return armPage(ctx, req, value, {
    nextLinkName: "@odata.nextLink",
    maxPageSize: 1000,
    top,
    extra: ({ total }) => ({ "@odata.context": context, "@odata.count": total }),
  });
}
