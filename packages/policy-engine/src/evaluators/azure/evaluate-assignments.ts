import type { AliasTable } from "./alias-table";
import type { AzureResource } from "./azure-resource";
import { evaluatePolicyRule } from "./evaluate-policy-rule";

export interface AzureAssignment {
  id: string;
  scope: string;
  notScopes: string[];
  policyDefinition: {
    id: string;
    policyRule: unknown;
    parameters?: Record<string, { defaultValue?: unknown }>;
  };
  parameters: Record<string, { value: unknown }>;
  nonComplianceMessages?: { message: string }[];
}

export interface AzureExemption {
  id: string;
  scope: string;
  policyAssignmentId: string;
  exemptionCategory: "Waiver" | "Mitigated";
  expiresOn?: string;
}

export interface AzureDecision {
  decision: "allow" | "deny";
  denyingAssignment?: AzureAssignment;
  message?: string;
  audits: AzureAssignment[];
}

/**
 * Management-group scopes are not prefixes of resource ids; a caller that knows the hierarchy
 * returns the management-group scopes above a resource so assignments there apply too.
 */
export type AncestorScopes = (resourceId: string) => string[];

function normalizeScope(scope: string): string {
  return scope.toLowerCase().replace(/\/+$/, "");
}

function isAtOrBelow(resourceIdLower: string, scope: string): boolean {
  const normalized = normalizeScope(scope);
  return normalized === "" || resourceIdLower === normalized || resourceIdLower.startsWith(`${normalized}/`);
}

function inScope(resourceIdLower: string, ancestors: string[], scope: string): boolean {
  if (isAtOrBelow(resourceIdLower, scope)) return true;
  const normalized = normalizeScope(scope);
  return ancestors.some((ancestor) => normalizeScope(ancestor) === normalized);
}

/** Assignment values override the definition's defaults (parameter names are case-insensitive). */
function parametersOf(assignment: AzureAssignment): Record<string, unknown> {
  const merged = new Map<string, [string, unknown]>();
  for (const [name, definition] of Object.entries(assignment.policyDefinition.parameters ?? {})) {
    if (definition.defaultValue !== undefined)
      merged.set(name.toLowerCase(), [name, definition.defaultValue]);
  }
  for (const [name, { value }] of Object.entries(assignment.parameters))
    merged.set(name.toLowerCase(), [name, value]);
  return Object.fromEntries(merged.values());
}

function isExempt(
  assignment: AzureAssignment,
  resourceIdLower: string,
  ancestors: string[],
  exemptions: AzureExemption[],
  now: Date,
): boolean {
  const assignmentId = assignment.id.toLowerCase();
  return exemptions.some(
    (exemption) =>
      exemption.policyAssignmentId.toLowerCase() === assignmentId &&
      inScope(resourceIdLower, ancestors, exemption.scope) &&
      (exemption.expiresOn === undefined || now.getTime() < Date.parse(exemption.expiresOn)),
  );
}

/**
 * Decides a create/update request the way Azure Resource Manager applies policy: every assignment
 * whose scope contains the resource (and no notScope does) and that no unexpired exemption covers
 * is evaluated; a Deny effect denies with the assignment's first non-compliance message, an Audit
 * effect is recorded, Disabled does nothing.
 */
export function evaluateAzureRequest(
  resource: AzureResource,
  assignments: AzureAssignment[],
  exemptions: AzureExemption[],
  now: Date,
  aliases: AliasTable,
  ancestorScopes?: AncestorScopes,
): AzureDecision {
  const resourceIdLower = normalizeScope(resource.id);
  const ancestors = ancestorScopes?.(resource.id) ?? [];
  let denyingAssignment: AzureAssignment | undefined;
  const audits: AzureAssignment[] = [];
  for (const assignment of assignments) {
    if (!inScope(resourceIdLower, ancestors, assignment.scope)) continue;
    if (assignment.notScopes.some((notScope) => inScope(resourceIdLower, ancestors, notScope))) continue;
    if (isExempt(assignment, resourceIdLower, ancestors, exemptions, now)) continue;
    const result = evaluatePolicyRule(
      assignment.policyDefinition.policyRule,
      resource,
      parametersOf(assignment),
      aliases,
    );
    if (!result.applies) continue;
    const effect = result.effect?.toLowerCase();
    if (effect === "deny") denyingAssignment ??= assignment;
    else if (effect === "audit") audits.push(assignment);
  }
  if (denyingAssignment) {
    return {
      decision: "deny",
      denyingAssignment,
      message: denyingAssignment.nonComplianceMessages?.[0]?.message,
      audits,
    };
  }
  return { decision: "allow", audits };
}
