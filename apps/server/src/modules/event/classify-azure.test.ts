import { readFileSync } from "node:fs";
import type { EventData } from "@azure/arm-monitor";
import { describe, expect, it } from "vitest";
import { activityRecord } from "../../cloud/azure/azure-audit";
import { classifyAudit } from "./classify";
import type { ClassifyContext, DeploymentInfo, WaiverInfo } from "./classify-context";

// Activity Log records written from Microsoft's documentation (see the fixtures' README), read
// through the adapter's own mapping, as the event pipeline reads them.
function documented(name: string) {
  const url = new URL(`../../../test/fixtures/azure-activity-log/${name}.json`, import.meta.url);
  const events = JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>[];
  return events.map((event) =>
    activityRecord({
      ...event,
      eventTimestamp: new Date(event.eventTimestamp as string),
      submissionTimestamp: new Date(event.submissionTimestamp as string),
    } as EventData),
  );
}

const ROOT = "/providers/Microsoft.Management/managementGroups/aaaabbbb-0000-cccc-1111-dddd2222eeee";
const LANDING_ZONES = "/providers/Microsoft.Management/managementGroups/landing-zones";
const SUB = "/subscriptions/11111111-1111-1111-1111-111111111111";
const RG = `${SUB}/resourceGroups/rg-data`;
const OTHER_SUB = "/subscriptions/22222222-2222-2222-2222-222222222222";
const STORAGE = `${SUB}/resourcegroups/rg-data/providers/Microsoft.Storage/storageAccounts/stpublicdata`;
const assignmentAt = (scope: string, key: string) =>
  `${scope}/providers/Microsoft.Authorization/policyAssignments/palisade-${key}-3f2a9c`;

/** The synced hierarchy: the subscription in `landing-zones`, below the tenant root group. */
const PARENTS: Record<string, string> = {
  [RG.toLowerCase()]: SUB,
  [SUB.toLowerCase()]: LANDING_ZONES,
  [OTHER_SUB.toLowerCase()]: ROOT,
  [LANDING_ZONES.toLowerCase()]: ROOT,
};

function context(deployments: DeploymentInfo[], waivers: WaiverInfo[] = [], synced = true): ClassifyContext {
  return {
    tenantId: "t1",
    provider: "azure",
    deployments,
    waivers,
    ancestorsOf: (id) => {
      const chain = [id];
      let parent = synced ? PARENTS[id.toLowerCase()] : undefined;
      while (parent) {
        chain.push(parent);
        parent = PARENTS[parent.toLowerCase()];
      }
      return chain;
    },
    consoleLinks: false,
  };
}

function deployment(scope: string, overrides: Partial<DeploymentInfo> = {}): DeploymentInfo {
  const key = overrides.key ?? "STPUB01";
  return {
    id: `dep-${scope}`,
    bundleId: "bundle-1",
    key,
    name: "Storage accounts deny public access",
    namespace: null,
    mode: "PREVENT",
    nativeId: assignmentAt(scope, key),
    scopeExternalId: scope,
    excludedScopes: [],
    affectedResourceTypes: ["Microsoft.Storage/storageAccounts"],
    ...overrides,
  };
}

const waiverOf = (d: DeploymentInfo, overrides: Partial<WaiverInfo> = {}): WaiverInfo => ({
  deploymentId: d.id,
  from: new Date("2026-06-01T13:00:00Z"),
  until: new Date("2026-06-08T13:00:00Z"),
  scope: null,
  resource: STORAGE.replace("/resourcegroups/", "/resourceGroups/"),
  principalArn: null,
  ...overrides,
});

const classify = (name: string, ctx: ClassifyContext) =>
  documented(name).flatMap((record) =>
    classifyAudit(record, ctx).map((e) => ({
      type: e.type,
      deploymentId: e.deploymentId,
      record: record.id,
    })),
  );

describe("documented Activity Log records", () => {
  it("a RequestDisallowedByPolicy write and its deny/action record are one prevention of the management-group guardrail", () => {
    const atGroup = deployment(LANDING_ZONES);
    expect(classify("deny-storage-write", context([atGroup]))).toEqual([
      { type: "PREVENTION", deploymentId: atGroup.id, record: "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6" },
    ]);
  });

  it("attributes a denial by an assignment Palisade replaced since to the key's deployment holding the resource", () => {
    const elsewhere = deployment(OTHER_SUB, { nativeId: null });
    const atGroup = deployment(LANDING_ZONES, { nativeId: null });
    const events = classify("deny-storage-write", context([elsewhere, atGroup]));
    expect(events.map((e) => e.deploymentId)).toEqual([atGroup.id]);
  });

  it("is not an ALERT when a compliance scan audits an existing resource", () => {
    const alert = deployment(LANDING_ZONES, { key: "HTTPS01", mode: "ALERT" });
    expect(classify("audit-compliance-scan", context([alert]))).toEqual([]);
  });

  it("is an ALERT when the same audit comes from a request (isComplianceCheck False)", () => {
    const alert = deployment(LANDING_ZONES, { key: "HTTPS01", mode: "ALERT" });
    const [scan] = documented("audit-compliance-scan");
    const raw = scan?.raw as EventData;
    const request = {
      ...scan!,
      raw: { ...raw, properties: { ...raw.properties, isComplianceCheck: "False" } },
    };
    expect(classifyAudit(request, context([alert])).map((e) => e.type)).toEqual(["ALERT"]);
  });

  it.each([
    ["management group", LANDING_ZONES],
    ["subscription", SUB],
    ["resource group", RG],
  ])(
    "a write allowed by an exemption from a %s guardrail is WAIVED once (its success, not its start)",
    (_name, scope) => {
      const guardrail = deployment(scope);
      expect(classify("waived-storage-write", context([guardrail], [waiverOf(guardrail)]))).toEqual([
        { type: "WAIVED", deploymentId: guardrail.id, record: "4b5c6d7e-8f90-41a2-83b4-c5d6e7f8091a" },
      ]);
    },
  );

  it("places the subscription below the management group by the synced hierarchy, not by the ids' text", () => {
    const atGroup = deployment(LANDING_ZONES);
    expect(classify("waived-storage-write", context([atGroup], [waiverOf(atGroup)], false))).toEqual([]);
  });

  it.each([
    ["outside the guardrail's scope", deployment(OTHER_SUB), {}],
    ["below an excluded scope", deployment(LANDING_ZONES, { excludedScopes: [SUB] }), {}],
    ["before the waiver took effect", deployment(LANDING_ZONES), { from: new Date("2026-06-01T15:00:00Z") }],
    [
      "by a waiver for the management group's other subscription",
      deployment(LANDING_ZONES),
      { resource: null, scope: OTHER_SUB },
    ],
  ])("a write %s is not WAIVED", (_name, guardrail, waiver) => {
    expect(classify("waived-storage-write", context([guardrail], [waiverOf(guardrail, waiver)]))).toEqual([]);
  });

  it("a waiver on the management group covers the write in its subscription", () => {
    const atGroup = deployment(LANDING_ZONES);
    const waiver = waiverOf(atGroup, { resource: null, scope: LANDING_ZONES });
    expect(classify("waived-storage-write", context([atGroup], [waiver])).map((e) => e.type)).toEqual([
      "WAIVED",
    ]);
  });
});
