import { randomUUID } from "node:crypto";
import { DEFAULT_SEED } from "@palisade/sandbox-cloud/start-sandbox-cloud";
import type {
  ActivityLogEvent,
  ArmObject,
  AzureState,
  PolicyStateRecord,
} from "@palisade/sandbox-cloud/state/model";
import { createSeedState } from "@palisade/sandbox-cloud/state/seed";

export const MG = "/providers/Microsoft.Management/managementGroups";
export const EXEMPTIONS = "/providers/Microsoft.Authorization/policyExemptions";
export const STATES = "/providers/Microsoft.PolicyInsights/policyStates/latest/queryResults";

export const assignmentId = (sub: string, name: string) =>
  `/subscriptions/${sub}/providers/Microsoft.Authorization/policyAssignments/${name}`;

export function activityEvent(azure: AzureState, sub: string, i: number): ActivityLogEvent {
  const loc = (value: string) => ({ value, localizedValue: value });
  const time = new Date(Date.now() - (i + 1) * 1000).toISOString();
  return {
    eventDataId: randomUUID(),
    correlationId: randomUUID(),
    operationId: randomUUID(),
    operationName: loc("Microsoft.Resources/tags/write"),
    category: loc("Administrative"),
    level: "Informational",
    resourceId: `/subscriptions/${sub}/providers/Microsoft.Resources/tags/default`,
    resourceProviderName: loc("Microsoft.Resources"),
    resourceType: loc("Microsoft.Resources/tags"),
    status: loc("Succeeded"),
    subStatus: loc(""),
    caller: "alice@contoso.example",
    claims: {},
    eventTimestamp: time,
    submissionTimestamp: time,
    subscriptionId: sub,
    tenantId: azure.tenantId,
    properties: {},
  };
}

export function policyState(sub: string, rg: string, assignment: string, i: number): PolicyStateRecord {
  return {
    timestamp: new Date(Date.now() - i * 1000).toISOString(),
    resourceId: `/subscriptions/${sub}/resourceGroups/${rg}/providers/Microsoft.Storage/storageAccounts/st${i}`,
    policyAssignmentId: assignment,
    policyDefinitionId: `/subscriptions/${sub}/providers/Microsoft.Authorization/policyDefinitions/https`,
    effectiveParameters: "",
    isCompliant: i % 3 !== 0,
    complianceState: i % 3 !== 0 ? "Compliant" : "NonCompliant",
    subscriptionId: sub,
    resourceType: "Microsoft.Storage/storageAccounts",
    resourceLocation: "westeurope",
    resourceGroup: rg,
    policyAssignmentName: assignment.split("/").at(-1)!,
    policyAssignmentScope: `/subscriptions/${sub}`,
    policyDefinitionName: "https",
    policyDefinitionAction: "deny",
    managementGroupIds: "",
    policyDefinitionReferenceId: "",
  };
}

/** The seeded tenant grown past several pages of every list, and what a full read must answer. */
export function largeTenant() {
  const state = createSeedState(DEFAULT_SEED);
  const azure = state.azure;
  const root = azure.tenantId;
  for (let g = 0; g < 3; g += 1) {
    azure.managementGroups.push({ name: `paged-${g}`, displayName: `Paged ${g}`, parentName: root });
    for (let s = 0; s < 2; s += 1) {
      azure.subscriptions.push({
        subscriptionId: randomUUID(),
        displayName: `paged-${g}-${s}`,
        managementGroupName: `paged-${g}`,
      });
    }
  }
  for (const sub of azure.subscriptions) {
    for (let r = 0; r < 5; r += 1) {
      azure.resourceGroups.push({
        subscriptionId: sub.subscriptionId,
        name: `rg-extra-${r}`,
        location: "westeurope",
      });
    }
  }
  const subs = azure.subscriptions.map((s) => s.subscriptionId);
  for (const sub of subs.slice(0, 3)) {
    for (let i = 0; i < 37; i += 1) azure.activityLog.push(activityEvent(azure, sub, i));
  }
  const first = subs[0]!;
  for (let i = 0; i < 9; i += 1) {
    const name = `waiver-${i}`;
    const exemption: ArmObject = {
      id: `/subscriptions/${first}${EXEMPTIONS}/${name}`,
      name,
      type: "Microsoft.Authorization/policyExemptions",
      properties: { policyAssignmentId: assignmentId(first, "pal-a"), exemptionCategory: "Waiver" },
    };
    azure.policyExemptions.push(exemption);
  }
  const a = assignmentId(first, "pal-a");
  const b = assignmentId(subs[1]!, "pal-b");
  const other = assignmentId(subs[2]!, "not-palisade");
  for (let i = 0; i < 3000; i += 1) azure.policyStates.push(policyState(first, "rg-extra-0", a, i));
  for (let i = 0; i < 2000; i += 1) azure.policyStates.push(policyState(subs[1]!, "rg-extra-1", b, i));
  for (let i = 0; i < 700; i += 1) azure.policyStates.push(policyState(subs[2]!, "rg-extra-2", other, i));
  const hierarchy = [
    `${MG}/${root}`,
    ...azure.managementGroups.filter((g) => g.name !== root).map((g) => `${MG}/${g.name}`),
    ...subs.map((s) => `/subscriptions/${s}`),
    ...azure.resourceGroups.map((g) => `/subscriptions/${g.subscriptionId}/resourceGroups/${g.name}`),
  ];
  return {
    state,
    root,
    firstSubscription: first,
    assignments: [a, b],
    expected: { hierarchy, activity: 3 * 37, exemptions: 9, states: 5000 },
  };
}
