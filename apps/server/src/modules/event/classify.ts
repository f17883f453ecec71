import {
  type ContextValue,
  evaluatePolicySet,
  type ScpPolicy,
} from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import type { AuditRecord, ComplianceRecord } from "../../cloud/cloud-provider";
import type { EventTypeName, NewPolicyEvent, StoredAudit } from "./record-event";

/** A deployment as classification needs it (joined with its bundle). */
export interface DeploymentInfo {
  id: string;
  bundleId: string;
  key: string;
  /** Bundle name. */
  name: string;
  namespace: string | null;
  mode: "PREVENT" | "ALERT";
  /** SCP id (`p-…`) or Azure assignment id. */
  nativeId: string | null;
  scopeExternalId: string;
  excludedScopes: string[];
  affectedResourceTypes: string[];
  /** AWS: the bundle's compiled SCP without waivers, to evaluate records against. */
  scp?: ScpPolicy;
}

/** A waiver as classification needs it: the window in which the cloud honoured it. */
export interface WaiverInfo {
  deploymentId: string;
  /** When it became enforceable (approval), and when it stopped (expiry or cancellation). */
  from: Date;
  until: Date;
  scope: string | null;
  resource: string | null;
  principalArn: string | null;
}

export interface ClassifyContext {
  tenantId: string;
  provider: "aws" | "azure";
  deployments: DeploymentInfo[];
  waivers: WaiverInfo[];
  /** The scope and its ancestors in the connector's hierarchy (AWS account -> OUs -> root). */
  ancestorsOf(scopeId: string): string[];
  /** Real clouds have consoles; the sandbox does not. */
  consoleLinks: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_BUDGET = 20;

/**
 * How a user appears in lists: a blank id is "Unknown User"; a service account known only by
 * its UUID is "Auto-Service" followed by the start of the id, cut to the 20-character budget.
 */
export function displayUserName(
  identifier: string | null | undefined,
  name: string | null | undefined,
): string {
  const id = (identifier ?? "").trim();
  if (!id) return "Unknown User";
  const shown = (name ?? "").trim();
  if (UUID.test(id) && (!shown || UUID.test(shown))) {
    const text = `Auto-Service ${id}`;
    return text.length > NAME_BUDGET ? `${text.slice(0, NAME_BUDGET - 3)}...` : text;
  }
  return shown || id;
}

const lower = (s: string) => s.toLowerCase();

function isAtOrBelowArm(child: string, parent: string): boolean {
  const c = lower(child).replace(/\/+$/, "");
  const p = lower(parent).replace(/\/+$/, "");
  return c === p || c.startsWith(`${p}/`);
}

function audit(record: AuditRecord): StoredAudit {
  return { id: record.id, action: record.action, eventTime: record.time.toISOString(), raw: record.raw };
}

function base(
  ctx: ClassifyContext,
  record: AuditRecord,
  deployment: DeploymentInfo,
  type: EventTypeName,
): Pick<
  NewPolicyEvent,
  | "tenantId"
  | "providerEventId"
  | "type"
  | "cloudProvider"
  | "deploymentId"
  | "bundleId"
  | "deploymentName"
  | "namespace"
  | "occurredAt"
  | "audits"
> {
  return {
    tenantId: ctx.tenantId,
    // One record can concern several bundles; each gets its own event.
    providerEventId: `${record.id}:${deployment.id}`,
    type,
    cloudProvider: ctx.provider === "aws" ? "AWS" : "AZURE",
    deploymentId: deployment.id,
    bundleId: deployment.bundleId,
    deploymentName: deployment.name,
    namespace: deployment.namespace,
    occurredAt: record.time,
    audits: [audit(record)],
  };
}

/** Every event one audit record gives rise to (none when no Palisade policy is involved). */
export function classifyAudit(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  return ctx.provider === "aws" ? classifyCloudTrail(record, ctx) : classifyActivity(record, ctx);
}

// ---------------------------------------------------------------------------------------------
// AWS (CloudTrail)

interface CloudTrailDetail {
  eventTime?: string;
  eventName?: string;
  eventSource?: string;
  awsRegion?: string;
  userAgent?: string;
  recipientAccountId?: string;
  requestParameters?: Record<string, unknown> | null;
  resources?: { ARN?: string; accountId?: string; type?: string }[];
  userIdentity?: {
    type?: string;
    arn?: string;
    accountId?: string;
    userName?: string;
    sessionContext?: { sessionIssuer?: { userName?: string } };
  };
  errorCode?: string;
  errorMessage?: string;
}

function cloudTrailDetail(raw: unknown): CloudTrailDetail {
  const text = (raw as { CloudTrailEvent?: string } | null)?.CloudTrailEvent;
  if (typeof text === "string") {
    try {
      return JSON.parse(text) as CloudTrailDetail;
    } catch {
      return {};
    }
  }
  return (raw as CloudTrailDetail) ?? {};
}

const SCP_IN_MESSAGE =
  /service control policy: (arn:aws:organizations::\d*:policy\/[^\s/]+\/service_control_policy\/(p-[0-9a-z]+))/i;

/** The IAM request a CloudTrail record stands for, with the condition keys AWS would have set. */
export function iamRequestOf(record: AuditRecord, detail: CloudTrailDetail) {
  const principalArn = detail.userIdentity?.arn ?? record.principal ?? "";
  const account = detail.recipientAccountId ?? detail.userIdentity?.accountId ?? record.scopeId ?? "";
  const context: Record<string, ContextValue> = {};
  for (const [key, value] of Object.entries(detail.requestParameters ?? {})) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      context[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === "string"))
      context[key] = value as string[];
  }
  const time = record.time;
  Object.assign(context, {
    "aws:PrincipalArn": principalArn,
    "aws:PrincipalAccount": account,
    "aws:PrincipalType": detail.userIdentity?.type === "IAMUser" ? "User" : "AssumedRole",
    "aws:RequestedRegion": detail.awsRegion ?? "us-east-1",
    "aws:CurrentTime": time.toISOString().replace(/\.\d{3}Z$/, "Z"),
    "aws:EpochTime": String(Math.floor(time.getTime() / 1000)),
    "aws:SecureTransport": "true",
    "aws:ViaAWSService": "false",
  });
  const resource = detail.resources?.[0]?.ARN ?? "*";
  return { action: record.action, resource, principalArn, context, account };
}

function awsResourceFields(detail: CloudTrailDetail, account: string, consoleLinks: boolean) {
  const first = detail.resources?.[0];
  if (first?.ARN) {
    const arn = first.ARN;
    return {
      resourceExternalId: arn,
      resourceNativeType: first.type ?? null,
      resourceName: arn.split(/[:/]/).pop() || arn,
      resourceScope: first.accountId ?? account,
      resourceLink: consoleLinks
        ? `https://console.aws.amazon.com/go/view?arn=${encodeURIComponent(arn)}`
        : "",
    };
  }
  // A request without a resource (e.g. a launch that never happened) is about the account.
  return {
    resourceExternalId: account,
    resourceNativeType: "AWS::Organizations::Account",
    resourceName: account,
    resourceScope: account,
    resourceLink: "",
  };
}

function awsUserFields(detail: CloudTrailDetail, record: AuditRecord) {
  const identity = detail.userIdentity ?? {};
  const arn = identity.arn ?? record.principal ?? "";
  const name =
    identity.userName ?? identity.sessionContext?.sessionIssuer?.userName ?? arn.split("/").pop() ?? "";
  const viaConsole = /console\.amazonaws\.com|signin\.amazonaws\.com/i.test(detail.userAgent ?? "");
  return {
    userIdentifier: arn,
    userName: name,
    sourceAppIdentifier: detail.userAgent ?? "",
    sourceAppName: viaConsole ? "AWS Management Console" : (detail.userAgent ?? ""),
    // IAM users and console sessions are people; other role sessions are workloads.
    userType: identity.type === "IAMUser" || viaConsole ? ("USER" as const) : ("APPLICATION" as const),
  };
}

function awsDeploymentApplies(d: DeploymentInfo, path: string[]): boolean {
  return path.includes(d.scopeExternalId) && !d.excludedScopes.some((s) => path.includes(s));
}

function awsWaiverApplies(w: WaiverInfo, at: Date, request: ReturnType<typeof iamRequestOf>, path: string[]) {
  if (w.from.getTime() > at.getTime() || w.until.getTime() <= at.getTime()) return false;
  if (w.principalArn) return lower(w.principalArn) === lower(request.principalArn);
  if (w.resource) return w.resource === request.resource;
  if (w.scope) return path.includes(w.scope);
  return true;
}

function classifyCloudTrail(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  const detail = cloudTrailDetail(record.raw);
  const request = iamRequestOf(record, detail);
  const path = request.account ? ctx.ancestorsOf(request.account) : [];
  const fields = {
    ...awsResourceFields(detail, request.account, ctx.consoleLinks),
    ...awsUserFields(detail, record),
  };
  const message = record.errorMessage ?? detail.errorMessage ?? "";
  const denied = /AccessDenied/i.test(record.errorCode ?? detail.errorCode ?? "");

  if (denied) {
    const match = SCP_IN_MESSAGE.exec(message);
    if (!match) return [];
    const policyId = match[2] as string;
    const candidates = ctx.deployments.filter(
      (d) => d.nativeId && (d.nativeId === policyId || d.nativeId.endsWith(`/${policyId}`)),
    );
    const deployment = candidates.find((d) => path.includes(d.scopeExternalId)) ?? candidates[0];
    if (!deployment) return [];
    return [{ ...base(ctx, record, deployment, "PREVENTION"), ...fields }];
  }

  // Allowed: what would a Palisade SCP have denied? ALERT bundles are never attached, and a
  // PREVENT bundle lets a request through only under a waiver.
  const events: NewPolicyEvent[] = [];
  const seenBundles = new Set<string>();
  for (const deployment of ctx.deployments) {
    if (!deployment.scp || seenBundles.has(deployment.bundleId)) continue;
    if (!awsDeploymentApplies(deployment, path)) continue;
    const decision = evaluatePolicySet(request, [deployment.scp]);
    if (decision.decision !== "explicit_deny") continue;
    seenBundles.add(deployment.bundleId);
    if (deployment.mode === "ALERT") {
      events.push({ ...base(ctx, record, deployment, "ALERT"), ...fields });
      continue;
    }
    const bundleDeployments = new Set(
      ctx.deployments.filter((d) => d.bundleId === deployment.bundleId).map((d) => d.id),
    );
    const waived = ctx.waivers.some(
      (w) => bundleDeployments.has(w.deploymentId) && awsWaiverApplies(w, record.time, request, path),
    );
    if (waived) events.push({ ...base(ctx, record, deployment, "WAIVED"), ...fields });
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Azure (Activity Log)

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

function azureResourceFields(resourceId: string, consoleLinks: boolean) {
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

function assignmentIdsIn(text: string): string[] {
  return [...text.matchAll(/"policyAssignmentId"\s*:\s*"([^"]+)"/g)].map((m) => m[1] as string);
}

function findByAssignment(ctx: ClassifyContext, assignmentId: string): DeploymentInfo | undefined {
  const id = lower(assignmentId);
  const exact = ctx.deployments.find((d) => d.nativeId && lower(d.nativeId) === id);
  if (exact) return exact;
  // Assignments are named palisade-<KEY>-<scope hash>.
  const key = /policyassignments\/palisade-([a-z0-9]{7})-/i.exec(assignmentId)?.[1]?.toUpperCase();
  const scope = assignmentId.replace(/\/providers\/Microsoft\.Authorization\/policyAssignments\/.*$/i, "");
  return key
    ? (ctx.deployments.find((d) => d.key === key && lower(d.scopeExternalId) === lower(scope)) ??
        ctx.deployments.find((d) => d.key === key))
    : undefined;
}

function classifyActivity(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  const detail = (record.raw ?? {}) as ActivityDetail;
  const resourceId = detail.resourceId ?? "";
  if (!resourceId) return [];
  const fields = { ...azureResourceFields(resourceId, ctx.consoleLinks), ...azureUserFields(detail, record) };
  const operation = record.action;

  if (record.errorCode === "RequestDisallowedByPolicy") {
    const status = detail.properties?.statusMessage ?? record.errorMessage ?? "";
    let deployment: DeploymentInfo | undefined;
    for (const id of assignmentIdsIn(status)) deployment ??= findByAssignment(ctx, id);
    // The non-compliance message carries the policy key.
    deployment ??= ctx.deployments.find(
      (d) => status.includes(d.key) || (record.errorMessage ?? "").includes(d.key),
    );
    return deployment ? [{ ...base(ctx, record, deployment, "PREVENTION"), ...fields }] : [];
  }

  if (/^Microsoft\.Authorization\/policies\/audit\/action$/i.test(operation)) {
    const events: NewPolicyEvent[] = [];
    for (const id of assignmentIdsIn(detail.properties?.policies ?? "")) {
      const deployment = findByAssignment(ctx, id);
      if (deployment?.mode === "ALERT") events.push({ ...base(ctx, record, deployment, "ALERT"), ...fields });
    }
    return events;
  }

  // A write that went through where a PREVENT assignment applies: the Activity Log does not say
  // why, so it counts as waived when a waiver covering the resource was in force at that time.
  if (record.errorCode || !/\/write$/i.test(operation) || /^Microsoft\.Authorization\//i.test(operation))
    return [];
  const nativeType = fields.resourceNativeType ?? "";
  const events: NewPolicyEvent[] = [];
  const seenBundles = new Set<string>();
  for (const deployment of ctx.deployments) {
    if (deployment.mode !== "PREVENT" || seenBundles.has(deployment.bundleId)) continue;
    if (!isAtOrBelowArm(resourceId, deployment.scopeExternalId)) continue;
    if (deployment.excludedScopes.some((s) => isAtOrBelowArm(resourceId, s))) continue;
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
        ((w.resource && isAtOrBelowArm(resourceId, w.resource)) ||
          (w.scope && isAtOrBelowArm(resourceId, w.scope)) ||
          (!w.resource && !w.scope)),
    );
    if (!waived) continue;
    seenBundles.add(deployment.bundleId);
    events.push({ ...base(ctx, record, deployment, "WAIVED"), ...fields });
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Compliance (Azure policy states)

export interface ComplianceFinding {
  deployment: DeploymentInfo;
  resourceId: string;
  compliant: boolean;
  time: Date;
}

/** The newest state of each (deployment, resource) pair among Palisade's assignments. */
export function latestCompliance(records: ComplianceRecord[], ctx: ClassifyContext): ComplianceFinding[] {
  const newest = new Map<string, ComplianceFinding>();
  for (const record of records) {
    if (!record.resourceId || !record.policyAssignmentId) continue;
    const deployment = findByAssignment(ctx, record.policyAssignmentId);
    if (!deployment) continue;
    const key = `${deployment.id}\u0000${lower(record.resourceId)}`;
    const seen = newest.get(key);
    if (!seen || seen.time.getTime() < record.time.getTime()) {
      newest.set(key, {
        deployment,
        resourceId: record.resourceId,
        compliant: record.compliant,
        time: record.time,
      });
    }
  }
  return [...newest.values()];
}

/** The drift event of a non-compliant resource, or the resolution of an earlier drift. */
export function complianceEvent(
  finding: ComplianceFinding,
  ctx: ClassifyContext,
  type: "DRIFT" | "RESOLVED",
): NewPolicyEvent {
  const d = finding.deployment;
  const time = finding.time.toISOString();
  return {
    tenantId: ctx.tenantId,
    providerEventId: `${type.toLowerCase()}:${d.id}:${lower(finding.resourceId)}:${time}`,
    type,
    cloudProvider: "AZURE",
    deploymentId: d.id,
    bundleId: d.bundleId,
    deploymentName: d.name,
    namespace: d.namespace,
    ...azureResourceFields(finding.resourceId, ctx.consoleLinks),
    userIdentifier: "",
    userName: "Azure Policy",
    userType: "APPLICATION",
    occurredAt: finding.time,
    audits: [
      {
        id: `${d.nativeId ?? d.id}:${finding.resourceId}`,
        action: "Microsoft.PolicyInsights/policyStates",
        eventTime: time,
        raw: {
          complianceState: finding.compliant ? "Compliant" : "NonCompliant",
          policyAssignmentId: d.nativeId,
        },
      },
    ],
  };
}
