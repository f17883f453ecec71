import { describe, expect, it } from "vitest";
import { createSeedState } from "../state/seed";
import { isAtOrBelow, parseScope, resolveScope, scopeChain } from "./scopes";

const state = createSeedState(7).azure;
const corpProd = state.subscriptions.find((s) => s.displayName === "corp-prod")!.subscriptionId;
const sub = `/subscriptions/${corpProd}`;
const rg = `${sub}/resourceGroups/rg-corp-prod-data`;
const mg = (n: string) => `/providers/Microsoft.Management/managementGroups/${n}`;
const storage = state.resources.find(
  (r) => r.id.startsWith(rg) && r.type === "Microsoft.Storage/storageAccounts",
)!.id;

describe("parseScope", () => {
  it.each([
    [mg("corp"), { kind: "managementGroup", managementGroup: "corp" }],
    [sub, { kind: "subscription", subscriptionId: corpProd }],
    [`${rg}/`, { kind: "resourceGroup", subscriptionId: corpProd, resourceGroup: "rg-corp-prod-data" }],
    [storage, { kind: "resource", subscriptionId: corpProd, resourceGroup: "rg-corp-prod-data" }],
    [
      `${sub}/providers/Microsoft.Authorization/policyDefinitions/x`,
      { kind: "resource", subscriptionId: corpProd },
    ],
    ["/tenants/x", undefined],
  ])("%s", (scope, expected) => {
    expect(parseScope(scope)).toEqual(expected);
  });
});

describe("hierarchy", () => {
  it("walks from the tenant root group down to the resource", () => {
    expect(scopeChain(state, storage)).toEqual([
      mg(state.tenantId),
      mg("contoso"),
      mg("landing-zones"),
      mg("corp"),
      sub,
      rg,
      storage,
    ]);
  });

  it.each([
    [storage, mg("corp"), true],
    [storage, mg("online"), false],
    [storage, sub.toUpperCase(), true],
    [sub, rg, false],
    [mg("corp"), mg("landing-zones"), true],
  ])("%s at or below %s: %s", (scope, ancestor, expected) => {
    expect(isAtOrBelow(state, scope, ancestor)).toBe(expected);
  });

  it("resolves scopes case-insensitively to their canonical spelling and rejects unknown ones", () => {
    expect(resolveScope(state, rg.toLowerCase())).toBe(rg);
    expect(resolveScope(state, mg("CORP"))).toBe(mg("corp"));
    expect(resolveScope(state, `${sub}/resourceGroups/nope`)).toBeUndefined();
  });
});
