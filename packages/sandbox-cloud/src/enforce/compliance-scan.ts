import type { AliasTable } from "@palisade/policy-engine/evaluators/azure/alias-table";
import { evaluateAzureRequest } from "@palisade/policy-engine/evaluators/azure/evaluate-assignments";
import { props } from "../azure/arm-http";
import { isAtOrBelow, sameScope, scopeChain } from "../azure/scopes";
import type { StateStore } from "../state/store";
import { policyInfo, policyState, toAssignment, toExemptions } from "./azure-policy-objects";
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
    azure.policyStates.push(policyState(azure, resource, policyInfo(azure, arm.id, effect), state, now));
    recorded++;
  }
  if (recorded) store.changed();
  return recorded;
}
