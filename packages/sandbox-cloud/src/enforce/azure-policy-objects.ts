import type { AzureResource } from "@palisade/policy-engine/evaluators/azure/azure-resource";
import type {
  AzureAssignment,
  AzureExemption,
} from "@palisade/policy-engine/evaluators/azure/evaluate-assignments";
import { props } from "../azure/arm-http";
import { findDefinition } from "../azure/built-in-definitions";
import { parseScope, scopeChain } from "../azure/scopes";
import type { ArmObject, AzureState, PolicyStateRecord } from "../state/model";

/** An ARM policy assignment as the policy engine's evaluator takes it (definition inlined). */
export function toAssignment(azure: AzureState, a: ArmObject): AzureAssignment | undefined {
  const p = props(a);
  const definition = findDefinition(azure, String(p.policyDefinitionId));
  if (!definition) return undefined;
  const dp = props(definition);
  return {
    id: a.id,
    scope: String(p.scope),
    notScopes: (p.notScopes ?? []) as string[],
    policyDefinition: {
      id: definition.id,
      policyRule: dp.policyRule,
      parameters: (dp.parameters ?? {}) as Record<string, { defaultValue?: unknown }>,
    },
    parameters: (p.parameters ?? {}) as Record<string, { value: unknown }>,
    nonComplianceMessages: (p.nonComplianceMessages ?? []) as { message: string }[],
  };
}

export function toExemptions(
  azure: AzureState,
  list: ArmObject[] = azure.policyExemptions,
): AzureExemption[] {
  return list.map((e) => {
    const p = props(e);
    return {
      id: e.id,
      scope: e.id.slice(0, e.id.indexOf("/providers/Microsoft.Authorization/policyExemptions/")),
      policyAssignmentId: String(p.policyAssignmentId),
      exemptionCategory: p.exemptionCategory as "Waiver" | "Mitigated",
      ...(p.expiresOn ? { expiresOn: String(p.expiresOn) } : {}),
    };
  });
}

/** The policy identifiers ARM puts in `additionalInfo` and Activity Log `policies`. */
export function policyInfo(azure: AzureState, assignmentId: string, effect: string) {
  const assignment = azure.policyAssignments.find((x) => x.id === assignmentId)!;
  const definition = findDefinition(azure, String(props(assignment).policyDefinitionId))!;
  return {
    policyDefinitionId: definition.id,
    policyDefinitionName: definition.name,
    policyDefinitionDisplayName: String(props(definition).displayName ?? definition.name),
    policyDefinitionEffect: effect,
    policyAssignmentId: assignment.id,
    policyAssignmentName: assignment.name,
    policyAssignmentDisplayName: String(props(assignment).displayName ?? assignment.name),
    policyAssignmentScope: String(props(assignment).scope),
    policyAssignmentParameters: props(assignment).parameters ?? {},
    policyExemptionIds: [] as string[],
  };
}

export function managementGroupNames(azure: AzureState, resourceId: string): string {
  return scopeChain(azure, resourceId)
    .filter((s) => parseScope(s)?.kind === "managementGroup")
    .map((s) => s.split("/").pop())
    .join(",");
}

export function policyState(
  azure: AzureState,
  resource: AzureResource,
  info: ReturnType<typeof policyInfo>,
  complianceState: PolicyStateRecord["complianceState"],
  now: Date,
): PolicyStateRecord {
  const parsed = parseScope(resource.id);
  return {
    timestamp: now.toISOString(),
    resourceId: resource.id,
    policyAssignmentId: info.policyAssignmentId,
    policyDefinitionId: info.policyDefinitionId,
    effectiveParameters: JSON.stringify(info.policyAssignmentParameters),
    isCompliant: complianceState !== "NonCompliant",
    complianceState,
    subscriptionId: parsed?.subscriptionId ?? "",
    resourceType: resource.type,
    resourceLocation: resource.location ?? "",
    resourceGroup: parsed?.resourceGroup ?? "",
    policyAssignmentName: info.policyAssignmentName,
    policyAssignmentScope: info.policyAssignmentScope,
    policyDefinitionName: info.policyDefinitionName,
    policyDefinitionAction: info.policyDefinitionEffect,
    managementGroupIds: managementGroupNames(azure, resource.id),
    policyDefinitionReferenceId: "",
  };
}
