import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import type { AuditRecord } from "../../cloud/cloud-provider";
import type { EventTypeName, NewPolicyEvent, StoredAudit } from "./policy-event";

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
  /** AWS: the organisation's management account, which SCPs never restrict. */
  managementAccountId?: string;
}
export const lower = (s: string) => s.toLowerCase();

export function isAtOrBelowArm(child: string, parent: string): boolean {
  const c = lower(child).replace(/\/+$/, "");
  const p = lower(parent).replace(/\/+$/, "");
  return c === p || c.startsWith(`${p}/`);
}

export function auditOf(record: AuditRecord): StoredAudit {
  return { id: record.id, action: record.action, eventTime: record.time.toISOString(), raw: record.raw };
}

export function baseEvent(
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
    audits: [auditOf(record)],
  };
}
