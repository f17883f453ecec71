// biome-ignore-all lint/suspicious/noThenProperty: Azure policy rules are { if, then } objects.
import { describe, expect, it } from "vitest";
import { azureDefinition, bundle, catalogue, KEY, NOW } from "../../../test/bundles";
import { toEvaluatorAssignments } from "../../catalogue/run-cases";
import type { AzureResource } from "../../evaluators/azure/azure-resource";
import { type AzureExemption, evaluateAzureRequest } from "../../evaluators/azure/evaluate-assignments";
import { type ActiveWaiver, CompileError } from "../compile-input";
import { compileAzureBundle, isAtOrBelow } from "./compile-azure";

const SUB = "/subscriptions/6f0a8a3c-2b1e-4c43-9d4b-2a7d1c9e5b11";
const OTHER_SUB = "/subscriptions/0b6f3c1e-93a4-4b8e-8c55-7d2a1f4e9c20";
const MG = "/providers/Microsoft.Management/managementGroups/landing-zones";

const vm = (id: string, location: string): AzureResource => ({
  id,
  type: "Microsoft.Compute/virtualMachines",
  name: id.split("/").pop()!,
  location,
});

const waiver = (id: string, hours: number, what: Partial<ActiveWaiver>): ActiveWaiver => ({
  id,
  key: KEY,
  expiresAt: new Date(NOW.getTime() + hours * 3_600_000),
  ...what,
});

describe("compileAzureBundle", () => {
  const compiled = compileAzureBundle(
    bundle({
      definition: azureDefinition("allowed-locations"),
      scopes: [{ id: SUB }, { id: `${SUB}/resourceGroups/shared-rg` }],
      excludedScopes: [{ id: `${SUB}/resourceGroups/sandbox-rg` }],
    }),
  );

  it("creates a custom definition with an effect parameter and the tree as policyRule", () => {
    const { definition } = compiled;
    expect(definition.id).toBe(
      `${SUB}/providers/Microsoft.Authorization/policyDefinitions/palisade-${KEY}-allowed-locations`,
    );
    expect(definition.properties).toMatchObject({
      policyType: "Custom",
      mode: "Indexed",
      metadata: { category: "data_protection", palisade: { key: KEY, slug: "allowed-locations" } },
    });
    expect(definition.properties.parameters.effect).toMatchObject({
      type: "String",
      allowedValues: ["Deny", "Audit", "Disabled"],
    });
    expect(definition.properties.parameters.listOfAllowedLocations).toMatchObject({
      type: "Array",
      defaultValue: ["westeurope", "northeurope"],
    });
    expect(definition.properties.policyRule).toEqual({
      if: {
        allOf: [
          { field: "location", notIn: "[parameters('listOfAllowedLocations')]" },
          { field: "location", notEquals: "global" },
          { field: "type", notEquals: "Microsoft.AzureActiveDirectory/b2cDirectories" },
        ],
      },
      then: { effect: "[parameters('effect')]" },
    });
    expect(definition.properties.description.length).toBeLessThanOrEqual(512);
    expect(definition.properties.description).not.toContain("#");
  });

  it("assigns once per scope with a short name carrying the key, and excludes scopes below it", () => {
    expect(compiled.assignments.map((a) => a.properties.scope)).toEqual([
      SUB,
      `${SUB}/resourceGroups/shared-rg`,
    ]);
    for (const assignment of compiled.assignments) {
      expect(assignment.name).toContain(KEY);
      expect(assignment.name.length).toBeLessThanOrEqual(24);
      expect(assignment.id).toBe(
        `${assignment.properties.scope}/providers/Microsoft.Authorization/policyAssignments/${assignment.name}`,
      );
      expect(assignment.properties.policyDefinitionId).toBe(compiled.definition.id);
    }
    expect(new Set(compiled.assignments.map((a) => a.name)).size).toBe(2);
    expect(compiled.assignments[0]!.properties.notScopes).toEqual([`${SUB}/resourceGroups/sandbox-rg`]);
    expect(compiled.assignments[1]!.properties.notScopes).toEqual([]);
  });

  it("renders the feedback message with key, bundle name and waiver link", () => {
    const [message] = compiled.assignments[0]!.properties.nonComplianceMessages;
    expect(message!.message).toContain(`(policy key ${KEY})`);
    expect(message!.message).toContain('"Platform guardrails"');
    expect(message!.message).toContain(`https://palisade.example.com/req?k=${KEY}`);
  });

  it.each([
    ["PREVENT", "Deny"],
    ["ALERT", "Audit"],
  ] as const)("%s mode assigns effect %s and the resolved parameters", (mode, effect) => {
    const out = compileAzureBundle(
      bundle({ definition: azureDefinition("allowed-locations"), mode, scopes: [{ id: SUB }] }),
    );
    expect(out.assignments[0]!.properties.parameters).toEqual({
      effect: { value: effect },
      listOfAllowedLocations: { value: ["westeurope", "northeurope"] },
    });
  });

  it("keeps assignment names stable when other scopes are added", () => {
    const alone = compileAzureBundle(
      bundle({ definition: azureDefinition("allowed-locations"), scopes: [{ id: SUB }] }),
    );
    expect(alone.assignments[0]!.name).toBe(compiled.assignments[0]!.name);
  });

  it("needs a definition scope when scopes span subscriptions", () => {
    const input = bundle({
      definition: azureDefinition("allowed-locations"),
      scopes: [{ id: SUB }, { id: OTHER_SUB }],
    });
    expect(() => compileAzureBundle(input)).toThrow(/different subscriptions or management groups/);
    const out = compileAzureBundle({ ...input, azureDefinitionScope: MG });
    expect(out.definition.id.startsWith(`${MG}/providers/Microsoft.Authorization/policyDefinitions/`)).toBe(
      true,
    );
  });

  it.each([["r-ab12"], ["/subscriptions/x/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/a"]])(
    "rejects %s as an assignment scope",
    (scope) => {
      expect(() =>
        compileAzureBundle(
          bundle({ definition: azureDefinition("allowed-locations"), scopes: [{ id: scope }] }),
        ),
      ).toThrow(expect.objectContaining({ code: "CLOUD_INVALID_SCOPE" }));
    },
  );
});

describe("exemptions for waivers", () => {
  const resourceId = `${SUB}/resourceGroups/app-rg/providers/Microsoft.Compute/virtualMachines/legacy-vm`;
  const compiled = compileAzureBundle(
    bundle({
      definition: azureDefinition("allowed-locations"),
      scopes: [{ id: `${SUB}/resourceGroups/app-rg` }, { id: `${SUB}/resourceGroups/data-rg` }],
      waivers: [
        waiver("w-1", 24, { resource: resourceId }),
        waiver("w-2", 24, { scope: SUB }),
        waiver("w-old", -2, { resource: resourceId }),
      ],
    }),
  );

  it("exempts the waived resource under the assignment that covers it, until the waiver expires", () => {
    const forResource = compiled.exemptions.filter((e) => e.properties.metadata.palisade.waiverId === "w-1");
    expect(forResource).toHaveLength(1);
    expect(forResource[0]).toMatchObject({
      id: `${resourceId}/providers/Microsoft.Authorization/policyExemptions/palisade-${KEY}-w-1`,
      properties: {
        policyAssignmentId: compiled.assignments[0]!.id,
        exemptionCategory: "Waiver",
        expiresOn: "2026-03-02T08:00:00.000Z",
      },
    });
    expect(forResource[0]!.properties.displayName).toContain(KEY);
  });

  it("exempts every assignment below a waiver scope at the assignment's own scope", () => {
    const wide = compiled.exemptions.filter((e) => e.properties.metadata.palisade.waiverId === "w-2");
    expect(wide.map((e) => e.id.split("/providers/Microsoft.Authorization/policyExemptions/")[0])).toEqual([
      `${SUB}/resourceGroups/app-rg`,
      `${SUB}/resourceGroups/data-rg`,
    ]);
    expect(new Set(wide.map((e) => e.name)).size).toBe(2);
  });

  it("leaves expired waivers out", () => {
    expect(compiled.exemptions.some((e) => e.properties.metadata.palisade.waiverId === "w-old")).toBe(false);
  });

  it("is honoured by the evaluator before expiry only", () => {
    const narrow = compileAzureBundle(
      bundle({
        definition: azureDefinition("allowed-locations"),
        scopes: [{ id: SUB }],
        waivers: [waiver("w-1", 24, { resource: resourceId })],
      }),
    );
    const exemptions: AzureExemption[] = narrow.exemptions.map((e) => ({
      id: e.id,
      scope: e.id.split("/providers/Microsoft.Authorization/policyExemptions/")[0]!,
      policyAssignmentId: e.properties.policyAssignmentId,
      exemptionCategory: e.properties.exemptionCategory,
      expiresOn: e.properties.expiresOn,
    }));
    const decide = (id: string, hours: number) =>
      evaluateAzureRequest(
        vm(id, "eastus"),
        toEvaluatorAssignments(narrow),
        exemptions,
        new Date(NOW.getTime() + hours * 3_600_000),
        catalogue.aliases,
      ).decision;
    expect(decide(resourceId, 1)).toBe("allow");
    expect(decide(resourceId, 25)).toBe("deny");
    expect(
      decide(`${SUB}/resourceGroups/app-rg/providers/Microsoft.Compute/virtualMachines/other-vm`, 1),
    ).toBe("deny");
  });

  it("exempts a subscription the hierarchy places below a management-group assignment", () => {
    const onGroup = (what: Partial<ActiveWaiver>) =>
      compileAzureBundle(
        bundle({
          definition: azureDefinition("allowed-locations"),
          scopes: [{ id: MG }],
          waivers: [waiver("w-sub", 5, what)],
        }),
      );
    const [exemption, ...others] = onGroup({ scope: SUB, withinScope: MG }).exemptions;
    expect(others).toEqual([]);
    expect(exemption?.id.startsWith(`${SUB}/providers/Microsoft.Authorization/policyExemptions/`)).toBe(true);
    expect(exemption?.properties.policyAssignmentId.startsWith(`${MG}/providers/`)).toBe(true);
    // Without the hierarchy, a subscription id never shows the management group above it.
    expect(() => onGroup({ scope: SUB })).toThrow(CompileError);
  });

  it.each<[string, Partial<ActiveWaiver>, string]>([
    [
      "outside every scope",
      { resource: "/subscriptions/ffffffff-0000-0000-0000-000000000000/resourceGroups/x" },
      "WAIVER_CREATION_FAILED_FORBIDDEN_SCOPE",
    ],
    [
      "naming an AWS principal",
      { principalArn: "arn:aws:iam::111122223333:role/x" },
      "PARSE_WAIVER_SCOPE_FAILED",
    ],
    ["that is not an ARM id", { scope: "legacy-vm" }, "PARSE_WAIVER_SCOPE_FAILED"],
  ])("rejects a waiver %s", (_name, what, code) => {
    let error: unknown;
    try {
      compileAzureBundle(
        bundle({
          definition: azureDefinition("allowed-locations"),
          scopes: [{ id: SUB }],
          waivers: [waiver("w", 5, what)],
        }),
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CompileError);
    expect((error as CompileError).code).toBe(code);
  });
});

describe("isAtOrBelow", () => {
  it.each([
    [`${SUB}/resourceGroups/rg`, SUB, true],
    [SUB, SUB.toUpperCase(), true],
    [`${SUB}0`, SUB, false],
    [SUB, `${SUB}/resourceGroups/rg`, false],
  ])("%s under %s: %s", (child, parent, expected) => {
    expect(isAtOrBelow(child, parent)).toBe(expected);
  });
});
