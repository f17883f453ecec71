// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { describe, expect, it } from "vitest";
import { type AzureAssignment, type AzureExemption, evaluateAzureRequest } from "./evaluate-assignments";
import { aliases, SUBSCRIPTION, storageAccount } from "./test-fixtures";

const RG = `${SUBSCRIPTION}/resourceGroups/rg-app`;
const NOW = new Date("2026-05-01T12:00:00Z");

const allowedLocations = {
  id: "/providers/Microsoft.Authorization/policyDefinitions/palisade-allowed-locations",
  parameters: {
    effect: { defaultValue: "Deny" },
    allowedLocations: { defaultValue: ["northeurope"] },
  },
  policyRule: {
    if: { not: { field: "location", in: "[parameters('allowedLocations')]" } },
    then: { effect: "[parameters('effect')]" },
  },
};

function assignment(overrides: Partial<AzureAssignment> & { key: string }): AzureAssignment {
  const { key, ...rest } = overrides;
  return {
    id: `${SUBSCRIPTION}/providers/Microsoft.Authorization/policyAssignments/palisade-${key}`,
    scope: SUBSCRIPTION,
    notScopes: [],
    policyDefinition: allowedLocations,
    parameters: { effect: { value: "Deny" } },
    nonComplianceMessages: [
      {
        message: `Blocked by Palisade policy ${key}. Request a waiver: https://palisade.example/req?k=${key}`,
      },
    ],
    ...rest,
  };
}

function exemption(target: AzureAssignment, overrides: Partial<AzureExemption> = {}): AzureExemption {
  return {
    id: `${RG}/providers/Microsoft.Authorization/policyExemptions/waiver-1`,
    scope: RG,
    policyAssignmentId: target.id,
    exemptionCategory: "Waiver",
    ...overrides,
  };
}

describe("evaluateAzureRequest", () => {
  const deny = assignment({ key: "ABCDEFG" });
  const audit = assignment({ key: "HJKMNPQ", parameters: { effect: { value: "Audit" } } });
  const disabled = assignment({ key: "RSTVWXY", parameters: { effect: { value: "Disabled" } } });
  const euOnly = assignment({
    key: "ZABCDEF",
    parameters: { effect: { value: "Deny" }, allowedLocations: { value: ["westeurope"] } },
  });

  // Azure Policy "assignment structure": an assignment applies to resources at or below its scope,
  // minus notScopes; "exemption structure": an exemption at or above the resource exempts it from
  // the named assignment until expiresOn; "effects": Deny blocks the request, Audit only records.
  it.each([
    {
      name: "deny with the assignment's non-compliance message",
      assignments: [deny],
      exemptions: [],
      decision: "deny",
      denying: deny,
      audits: [],
    },
    {
      name: "assignment parameters override defaults",
      assignments: [euOnly],
      exemptions: [],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "Audit does not deny but is reported",
      assignments: [audit],
      exemptions: [],
      decision: "allow",
      denying: undefined,
      audits: [audit],
    },
    {
      name: "Deny beats Audit",
      assignments: [audit, deny],
      exemptions: [],
      decision: "deny",
      denying: deny,
      audits: [audit],
    },
    {
      name: "Disabled does nothing",
      assignments: [disabled],
      exemptions: [],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "scope match is case-insensitive",
      assignments: [assignment({ key: "ABCDEFG", scope: RG.toUpperCase() })],
      exemptions: [],
      decision: "deny",
      denying: undefined,
      audits: [],
    },
    {
      name: "resource outside the scope",
      assignments: [assignment({ key: "ABCDEFG", scope: `${SUBSCRIPTION}/resourceGroups/rg-other` })],
      exemptions: [],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "scope prefix must end at a path segment",
      assignments: [assignment({ key: "ABCDEFG", scope: `${SUBSCRIPTION}/resourceGroups/rg-ap` })],
      exemptions: [],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "notScopes exclude a resource group",
      assignments: [assignment({ key: "ABCDEFG", notScopes: [RG] })],
      exemptions: [],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "notScopes elsewhere do not exclude",
      assignments: [assignment({ key: "ABCDEFG", notScopes: [`${SUBSCRIPTION}/resourceGroups/rg-other`] })],
      exemptions: [],
      decision: "deny",
      denying: undefined,
      audits: [],
    },
    {
      name: "unexpired exemption exempts",
      assignments: [deny],
      exemptions: [exemption(deny, { expiresOn: "2026-05-01T13:00:00Z" })],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "exemption without expiry exempts",
      assignments: [deny],
      exemptions: [exemption(deny, { exemptionCategory: "Mitigated" })],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
    {
      name: "expired exemption no longer exempts",
      assignments: [deny],
      exemptions: [exemption(deny, { expiresOn: "2026-05-01T12:00:00Z" })],
      decision: "deny",
      denying: deny,
      audits: [],
    },
    {
      name: "exemption for another assignment does not exempt",
      assignments: [deny],
      exemptions: [exemption(audit)],
      decision: "deny",
      denying: deny,
      audits: [],
    },
    {
      name: "exemption on another resource group does not exempt",
      assignments: [deny],
      exemptions: [exemption(deny, { scope: `${SUBSCRIPTION}/resourceGroups/rg-other` })],
      decision: "deny",
      denying: deny,
      audits: [],
    },
    {
      name: "exemption on the resource itself",
      assignments: [deny],
      exemptions: [exemption(deny, { scope: storageAccount().id })],
      decision: "allow",
      denying: undefined,
      audits: [],
    },
  ])("$name", ({ assignments, exemptions, decision, denying, audits }) => {
    const result = evaluateAzureRequest(storageAccount(), assignments, exemptions, NOW, aliases);
    expect(result.decision).toBe(decision);
    if (denying) {
      expect(result.denyingAssignment).toBe(denying);
      expect(result.message).toBe(denying.nonComplianceMessages?.[0]?.message);
    }
    if (decision === "allow") expect(result.denyingAssignment).toBeUndefined();
    expect(result.audits).toEqual(audits);
  });

  it("applies management-group assignments through the ancestors the caller supplies", () => {
    const mg = "/providers/Microsoft.Management/managementGroups/mg-prod";
    const atMg = assignment({ key: "ABCDEFG", scope: mg });
    expect(evaluateAzureRequest(storageAccount(), [atMg], [], NOW, aliases).decision).toBe("allow");
    const result = evaluateAzureRequest(storageAccount(), [atMg], [], NOW, aliases, () => [mg]);
    expect(result.decision).toBe("deny");
  });

  it("denies without a message when the assignment has none", () => {
    const silent = assignment({ key: "ABCDEFG", nonComplianceMessages: [] });
    expect(evaluateAzureRequest(storageAccount(), [silent], [], NOW, aliases)).toEqual({
      decision: "deny",
      denyingAssignment: silent,
      message: undefined,
      audits: [],
    });
  });
});
