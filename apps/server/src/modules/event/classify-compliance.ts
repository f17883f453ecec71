import type { ComplianceRecord } from "../../cloud/cloud-provider";
import { azureResourceFields, findByAssignment } from "./classify-azure";
import { type ClassifyContext, type DeploymentInfo, lower } from "./classify-context";
import type { NewPolicyEvent } from "./policy-event";

// Azure policy states: resources that drifted out of compliance, and back.

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
