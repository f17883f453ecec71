import type { SandboxResponse } from "../http/types";
import { type ArmContext, armError, props } from "./arm-http";
import { findDefinition } from "./built-in-definitions";
import type { Collection } from "./policy-collections";
import { isAtOrBelow, parseScope, sameScope, scopeChain } from "./scopes";

export function validatePolicyObject(
  ctx: ArmContext,
  collection: Collection,
  scope: string,
  p: Record<string, unknown>,
): SandboxResponse | undefined {
  const azure = ctx.store.state.azure;
  if (collection.key === "policyDefinitions") {
    const rule = p.policyRule as { if?: unknown; then?: { effect?: unknown } } | undefined;
    if (!rule || typeof rule !== "object" || !rule.if || !rule.then?.effect) {
      return armError(
        400,
        "InvalidPolicyRule",
        "Failed to parse policy rule: the 'if' and 'then.effect' properties are required.",
      );
    }
    const declared = new Set(Object.keys((p.parameters ?? {}) as object).map((k) => k.toLowerCase()));
    for (const m of JSON.stringify(rule).matchAll(/parameters\('([^']+)'\)/g)) {
      if (!declared.has(m[1]!.toLowerCase())) {
        return armError(
          400,
          "InvalidPolicyParameters",
          `The policy rule references the parameter '${m[1]}' which is not defined in the policy definition.`,
        );
      }
    }
    const kind = parseScope(scope)?.kind;
    if (kind !== "subscription" && kind !== "managementGroup") {
      return armError(
        400,
        "InvalidPolicyDefinitionScope",
        "Policy definitions can be created at management group or subscription scope only.",
      );
    }
    return undefined;
  }
  if (collection.key === "policyAssignments") {
    const definitionId = String(p.policyDefinitionId ?? "");
    const definition = findDefinition(azure, definitionId);
    if (!definition) {
      return armError(
        404,
        "PolicyDefinitionNotFound",
        `The policy definition '${definitionId.split("/").pop()}' could not be found.`,
      );
    }
    const definitionScope = definition.id.slice(
      0,
      definition.id.indexOf("/providers/Microsoft.Authorization/"),
    );
    const given = new Set(Object.keys((p.parameters ?? {}) as object).map((k) => k.toLowerCase()));
    const definitionParameters = (props(definition).parameters ?? {}) as Record<
      string,
      { defaultValue?: unknown }
    >;
    for (const [name, spec] of Object.entries(definitionParameters)) {
      if (spec?.defaultValue === undefined && !given.has(name.toLowerCase())) {
        return armError(
          400,
          "MissingPolicyParameter",
          `The policy assignment is missing a value for the parameter '${name}', which has no default value.`,
        );
      }
    }
    if (!isAtOrBelow(azure, scope, definitionScope)) {
      return armError(
        400,
        "InvalidCreatePolicyAssignmentRequest",
        `The policy definition '${definition.name}' is not visible at scope '${scope}'. The definition must be at or above the assignment scope.`,
      );
    }
    if (
      p.enforcementMode !== undefined &&
      p.enforcementMode !== "Default" &&
      p.enforcementMode !== "DoNotEnforce"
    ) {
      return armError(
        400,
        "InvalidPolicyAssignmentEnforcementMode",
        "enforcementMode must be Default or DoNotEnforce.",
      );
    }
    for (const notScope of (p.notScopes as string[] | undefined) ?? []) {
      if (!scopeChain(azure, notScope).length) {
        return armError(400, "InvalidNotScopes", `The not scope '${notScope}' is not a valid scope.`);
      }
    }
    return undefined;
  }
  const assignmentId = String(p.policyAssignmentId ?? "");
  const assignment = azure.policyAssignments.find((a) => sameScope(a.id, assignmentId));
  if (!assignment) {
    return armError(
      404,
      "PolicyAssignmentNotFound",
      `The policy assignment '${assignmentId.split("/").pop()}' is not found.`,
    );
  }
  if (p.exemptionCategory !== "Waiver" && p.exemptionCategory !== "Mitigated") {
    return armError(400, "InvalidPolicyExemptionCategory", "exemptionCategory must be Waiver or Mitigated.");
  }
  if (p.expiresOn !== undefined && Number.isNaN(Date.parse(String(p.expiresOn)))) {
    return armError(400, "InvalidPolicyExemptionExpiresOn", "expiresOn must be an ISO 8601 date-time.");
  }
  const assignmentScope = String(props(assignment).scope ?? "");
  if (!isAtOrBelow(azure, scope, assignmentScope)) {
    return armError(
      400,
      "InvalidPolicyExemptionScope",
      `The exemption scope '${scope}' must be at or below the assignment scope '${assignmentScope}'.`,
    );
  }
  return undefined;
}
