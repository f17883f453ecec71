import { describe, expect, it } from "vitest";
import { waiverScopeLabel } from "./waiver-scope";

describe("waiverScopeLabel", () => {
  it("reads a scope by name, kind and parent", () => {
    expect(
      waiverScopeLabel({
        externalId: "111122223333",
        name: "payments-prod",
        type: "SCOPE_TYPE_AWS_ACCOUNT",
        parentName: "Workloads-Prod",
      }),
    ).toBe("payments-prod (Account in Workloads-Prod)");
    expect(
      waiverScopeLabel({
        externalId: "/subscriptions/x/resourceGroups/rg-app",
        name: "rg-app",
        type: "SCOPE_TYPE_AZURE_RESOURCE_GROUP",
        parentName: "corp-prod",
      }),
    ).toBe("rg-app (Resource group in corp-prod)");
  });

  it("falls back to the id when the hierarchy does not know the scope's name", () => {
    expect(
      waiverScopeLabel({ externalId: "/subscriptions/abc", type: "SCOPE_TYPE_AZURE_SUBSCRIPTION" }),
    ).toBe("/subscriptions/abc (Subscription)");
  });
});
