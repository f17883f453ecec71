import type { AuditRecord } from "../../cloud/cloud-provider";
import {
  baseEvent,
  type ClassifyContext,
  type DeploymentInfo,
  isAtOrBelowArm,
  lower,
} from "./classify-context";
import { UUID } from "./display-user-name";
import type { NewPolicyEvent } from "./policy-event";

// Azure: Activity Log records of requests that policy assignments denied, audited or exempted.

interface ActivityDetail {
  resourceId?: string;
  caller?: string;
  claims?: Record<string, string>;
  operationName?: { value?: string };
  status?: { value?: string };
  properties?: Record<string, string>;
  httpRequest?: { clientRequestId?: string };
}

/** Parts of an ARM resource id: type, name, and the resource group (or subscription) it lives in. */
export function armResourceParts(resourceId: string) {
  const sub = /^\/subscriptions\/([^/]+)/i.exec(resourceId);
  const rg = /^(\/subscriptions\/[^/]+\/resourceGroups\/[^/]+)/i.exec(resourceId);
  const typed = /\/providers\/([^/]+\/[^/]+)\/([^/]+)$/i.exec(resourceId);
  return {
    scope: rg?.[1] ?? (sub ? `/subscriptions/${sub[1]}` : null),
    nativeType: typed?.[1] ?? null,
    name: typed?.[2] ?? resourceId.split("/").filter(Boolean).pop() ?? resourceId,
  };
}

export function azureResourceFields(resourceId: string, consoleLinks: boolean) {
  const parts = armResourceParts(resourceId);
  return {
    resourceExternalId: resourceId,
    resourceNativeType: parts.nativeType,
    resourceName: parts.name,
    resourceScope: parts.scope,
    resourceLink: consoleLinks ? `https://portal.azure.com/#resource${resourceId}/overview` : "",
  };
}

function azureUserFields(detail: ActivityDetail, record: AuditRecord) {
  const caller = detail.caller ?? record.principal ?? "";
  const objectId = detail.claims?.["http://schemas.microsoft.com/identity/claims/objectidentifier"] ?? "";
  const app = detail.claims?.appid ?? "";
  return {
    userIdentifier: caller,
    userName: detail.claims?.name ?? caller,
    sourceAppIdentifier: app || objectId,
    sourceAppName: detail.claims?.appDisplayName ?? "",
    // A caller that is a UPN is a person; a bare client id is a service principal.
    userType: UUID.test(caller) ? ("APPLICATION" as const) : ("USER" as const),
  };
}

/**
 * The assignment ids a record names: `policyAssignmentId` in `policies` and in a denial's
 * `additionalInfo`, and `policyAssignment.id` among the policy identifiers of a denial's message,
 * where the quotes are escaped once more.
 */
function assignmentIdsIn(text: string): string[] {
  const patterns = [
    /\\?"policyAssignmentId\\?"\s*:\s*\\?"([^"\\]+)/g,
    /\\?"policyAssignment\\?"\s*:\s*\{[^}]*?\\?"id\\?"\s*:\s*\\?"([^"\\]+)/g,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1] as string));
}

/**
 * Whether the resource is at or below the scope. Inside a subscription an ARM id contains its
 * resource group's and subscription's; above it, a subscription's management groups are known
 * only from the synced hierarchy (`/subscriptions/…` never starts with a management group's id).
 */
export function isUnderScope(ctx: ClassifyContext, resourceId: string, scope: string): boolean {
  if (isAtOrBelowArm(resourceId, scope)) return true;
  const subscription = /^\/subscriptions\/[^/]+/i.exec(resourceId)?.[0];
  return subscription !== undefined && ctx.ancestorsOf(subscription).some((a) => lower(a) === lower(scope));
}

/**
 * The deployment an assignment id names: the one with that id, else (an assignment replaced since)
 * the one of the key in the name at that scope, else the key's deployment whose scope holds the
 * resource.
 */
export function findByAssignment(
  ctx: ClassifyContext,
  assignmentId: string,
  resourceId?: string,
): DeploymentInfo | undefined {
  // Policy records may end the id with "/" (Microsoft's Activity Log schema sample does).
  const id = lower(assignmentId).replace(/\/+$/, "");
  const exact = ctx.deployments.find((d) => d.nativeId && lower(d.nativeId) === id);
  if (exact) return exact;
  // Assignments are named palisade-<KEY>-<scope hash>.
  const key = /policyassignments\/palisade-([a-z0-9]{7})-/i.exec(assignmentId)?.[1]?.toUpperCase();
  const scope = assignmentId.replace(/\/providers\/Microsoft\.Authorization\/policyAssignments\/.*$/i, "");
  return key
    ? (ctx.deployments.find((d) => d.key === key && lower(d.scopeExternalId) === lower(scope)) ??
        byKeyHolding(ctx, key, resourceId))
    : undefined;
}

/** The key's deployment whose scope holds the resource, else its first. */
function byKeyHolding(ctx: ClassifyContext, key: string, resourceId: string | undefined) {
  const ofKey = ctx.deployments.filter((d) => d.key === key);
  return (
    (resourceId ? ofKey.find((d) => isUnderScope(ctx, resourceId, d.scopeExternalId)) : undefined) ?? ofKey[0]
  );
}

/** Records Azure Policy writes when a compliance scan evaluates existing resources, not a request. */
function isComplianceScan(detail: ActivityDetail): boolean {
  return lower(detail.properties?.isComplianceCheck ?? "") === "true";
}

export function classifyActivity(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  const detail = (record.raw ?? {}) as ActivityDetail;
  const resourceId = detail.resourceId ?? "";
  if (!resourceId) return [];
  const fields = { ...azureResourceFields(resourceId, ctx.consoleLinks), ...azureUserFields(detail, record) };
  const operation = record.action;

  if (record.errorCode === "RequestDisallowedByPolicy") {
    const status = detail.properties?.statusMessage ?? record.errorMessage ?? "";
    let deployment: DeploymentInfo | undefined;
    for (const id of assignmentIdsIn(status)) deployment ??= findByAssignment(ctx, id, resourceId);
    // The non-compliance message carries the policy key.
    const key = ctx.deployments.find(
      (d) => status.includes(d.key) || (record.errorMessage ?? "").includes(d.key),
    )?.key;
    if (key) deployment ??= byKeyHolding(ctx, key, resourceId);
    return deployment ? [{ ...baseEvent(ctx, record, deployment, "PREVENTION"), ...fields }] : [];
  }

  if (/^Microsoft\.Authorization\/policies\/audit\/action$/i.test(operation)) {
    if (isComplianceScan(detail)) return [];
    const events: NewPolicyEvent[] = [];
    for (const id of assignmentIdsIn(detail.properties?.policies ?? "")) {
      const deployment = findByAssignment(ctx, id, resourceId);
      if (deployment?.mode === "ALERT")
        events.push({ ...baseEvent(ctx, record, deployment, "ALERT"), ...fields });
    }
    return events;
  }

  // A write that went through where a PREVENT assignment applies: the Activity Log does not say
  // why, so it counts as waived when a waiver covering the resource was in force at that time.
  // ARM logs a write's start and its outcome as separate events; the one that succeeded counts.
  if (
    record.errorCode ||
    !/\/write$/i.test(operation) ||
    /^Microsoft\.Authorization\//i.test(operation) ||
    lower(detail.status?.value ?? "") !== "succeeded"
  )
    return [];
  const nativeType = fields.resourceNativeType ?? "";
  const under = (scope: string) => isUnderScope(ctx, resourceId, scope);
  const events: NewPolicyEvent[] = [];
  const seenBundles = new Set<string>();
  for (const deployment of ctx.deployments) {
    if (deployment.mode !== "PREVENT" || seenBundles.has(deployment.bundleId)) continue;
    if (!under(deployment.scopeExternalId) || deployment.excludedScopes.some(under)) continue;
    if (
      deployment.affectedResourceTypes.length > 0 &&
      !deployment.affectedResourceTypes.some((t) => lower(t) === lower(nativeType))
    )
      continue;
    const waived = ctx.waivers.some(
      (w) =>
        w.deploymentId === deployment.id &&
        w.from.getTime() <= record.time.getTime() &&
        w.until.getTime() > record.time.getTime() &&
        ((w.resource && under(w.resource)) || (w.scope && under(w.scope)) || (!w.resource && !w.scope)),
    );
    if (!waived) continue;
    seenBundles.add(deployment.bundleId);
    events.push({ ...baseEvent(ctx, record, deployment, "WAIVED"), ...fields });
  }
  return events;
}
