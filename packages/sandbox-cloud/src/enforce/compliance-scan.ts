import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import { evaluateAzureRequest } from "@palisade/policy-engine/evaluators/azure/evaluate-assignments";
import { recordActivity } from "../azure/activity-log";
import { props } from "../azure/arm-http";
import { isAtOrBelow, parseScope, sameScope, scopeChain } from "../azure/scopes";
import type { StateStore } from "../state/store";
import {
  managementGroupNames,
  policyInfo,
  policyState,
  toAssignment,
  toExemptions,
} from "./azure-policy-objects";

/**
 * A compliance scan's Activity Log records are Azure Policy's own: "For existing resources, the
 * GUID of the Microsoft Azure Policy Insights RP" as caller, "Microsoft.Resources/checkPolicyCompliance"
 * as type and in the authorization, and `isComplianceCheck` "True" for every evaluation trigger but
 * a request (https://learn.microsoft.com/azure/azure-monitor/essentials/activity-log-schema#policy-category).
 */
export const POLICY_INSIGHTS_APP_ID = "1d78a85d-813d-46f0-b496-dd72f50a3ec0";
const CHECK_POLICY_COMPLIANCE = "Microsoft.Resources/checkPolicyCompliance";

import { exemptionsInForce } from "./propagation";

function declaredEffect(assignment: NonNullable<ReturnType<typeof toAssignment>>): string {
  const then = (assignment.policyDefinition.policyRule as { then?: { effect?: unknown } } | undefined)?.then;
  const literal = typeof then?.effect === "string" && !then.effect.startsWith("[") ? then.effect : undefined;
  const parameter = Object.entries(assignment.parameters).find(([k]) => k.toLowerCase() === "effect")?.[1]
    ?.value;
  const fallback = Object.entries(assignment.policyDefinition.parameters ?? {}).find(
    ([k]) => k.toLowerCase() === "effect",
  )?.[1]?.defaultValue;
  return String(literal ?? parameter ?? fallback ?? "audit").toLowerCase();
}

/**
 * Evaluates the existing resources under a new or changed assignment, as Azure Policy's compliance
 * scan does, so ALERT (Audit) assignments report the resources that already break them.
 */
export function scanAssignment(store: StateStore, assignmentId: string, aliases: AliasTable): number {
  const azure = store.state.azure;
  const arm = azure.policyAssignments.find((a) => sameScope(a.id, assignmentId));
  const assignment = arm && toAssignment(azure, arm);
  if (!arm || !assignment) return 0;
  const scope = String(props(arm).scope);
  const exemptions = toExemptions(azure, exemptionsInForce(store));
  const now = store.now();
  const effect = declaredEffect(assignment);
  // "When enforcementMode is disabled, resources are still evaluated. Logging, such as Activity
  // logs, and the policy effect don't occur" (https://learn.microsoft.com/azure/governance/policy/concepts/effect-disabled).
  const logs = props(arm).enforcementMode !== "DoNotEnforce";
  let recorded = 0;
  for (const resource of azure.resources) {
    if (!isAtOrBelow(azure, resource.id, scope)) continue;
    const ancestors = () => scopeChain(azure, resource.id);
    const decide = (withExemptions: boolean) => {
      const d = evaluateAzureRequest(
        resource,
        [assignment],
        withExemptions ? exemptions : [],
        now,
        aliases,
        ancestors,
      );
      return d.denyingAssignment !== undefined || d.audits.length > 0;
    };
    let state: "Compliant" | "NonCompliant" | "Exempt";
    try {
      state = !decide(false) ? "Compliant" : decide(true) ? "NonCompliant" : "Exempt";
    } catch {
      // A rule the evaluator cannot evaluate for this resource reports nothing, as Azure skips it.
      continue;
    }
    const info = policyInfo(azure, arm.id, effect);
    azure.policyStates.push(policyState(azure, resource, info, state, now));
    recorded++;
    if (state === "NonCompliant" && logs)
      recordActivity(store, {
        resourceId: resource.id,
        operationName: "Microsoft.Authorization/policies/audit/action",
        caller: POLICY_INSIGHTS_APP_ID,
        callerObjectId: POLICY_INSIGHTS_APP_ID,
        status: "Succeeded",
        category: "Policy",
        level: "Warning",
        resourceType: CHECK_POLICY_COMPLIANCE,
        authorization: {
          action: `${CHECK_POLICY_COMPLIANCE}/read`,
          scope: `/subscriptions/${parseScope(resource.id)?.subscriptionId}`,
        },
        method: "POST",
        properties: {
          isComplianceCheck: "True",
          resourceLocation: resource.location ?? "",
          ancestors: managementGroupNames(azure, resource.id),
          policies: JSON.stringify([info]),
        },
      });
  }
  if (recorded) store.changed();
  return recorded;
}
