import type { PackedPolicyType } from "@palisade/policy-engine/catalogue/definition-schema";
import type { CompiledScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import type { CompiledAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { AwsCloudProvider, AzureCloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import type { Logger } from "../../logger";
import { recordMissingDeployment } from "../event/event-api";
import { documentHash } from "./bundle-compile";
import {
  cloudFailure,
  type DeploymentErrorCode,
  type Failure,
  isTransient,
  type WaiverErrorCode,
  waiverFailure,
} from "./cloud-failure";
import type { DeploymentRow } from "./deployment-repository";
import { type RepackOutcome, repackTarget } from "./scp-repack";
import { updateDeployments } from "./sync-state-repository";

export interface RunOptions {
  /** The job will not be retried again: record transient failures instead of throwing. */
  lastAttempt: boolean;
  /** Reconcile: report a policy that was removed from the cloud behind Palisade's back. */
  detectMissing?: boolean;
}

/** A cloud failure that passes with time; the job retries the step. */
export class TransientCloudError extends Error {
  override name = "TransientCloudError";
}

/** One run of the engine on one bundle of one tenant. */
export interface ApplyContext {
  db: Database;
  logger: Logger;
  tenantId: string;
  options: RunOptions;
}

export async function failDeployments(
  run: ApplyContext,
  rows: DeploymentRow[],
  failure: Failure<DeploymentErrorCode>,
): Promise<void> {
  await updateDeployments(
    run.db,
    run.tenantId,
    rows.map((d) => d.id),
    { status: "FAILED", errorCode: failure.code, errorMessage: failure.message },
  );
}

/** Throttling and unreachable clouds are retried by the job, except on its last attempt. */
export function rethrowTransient(error: unknown, options: RunOptions): void {
  if (isTransient(error) && !options.lastAttempt) {
    throw new TransientCloudError((error as Error).message ?? String(error));
  }
}

/** In the cloud: enforced, or written and on its way to being enforced. */
export const inCloud = (status: string) => status === "DEPLOYED" || status === "PROPAGATING";

export async function reportMissing(run: ApplyContext, rows: DeploymentRow[], reason: string): Promise<void> {
  const detectedAt = new Date();
  for (const deployment of rows.filter((d) => inCloud(d.status))) {
    await recordMissingDeployment(run.db, {
      tenantId: deployment.tenantId,
      deploymentId: deployment.id,
      detectedAt,
      nativeId: deployment.nativeId,
      reason,
    });
    run.logger.warn(
      { deploymentId: deployment.id, reason },
      "deployment missing from the cloud; restoring it",
    );
  }
}

/**
 * Places the bundle's guardrail in the packed SCPs of each target it deploys to (PREVENT), or takes
 * it out of them (ALERT, or a target it leaves). Each target is re-packed on its own, so a target
 * that is full fails alone with POLICY_LIMIT_EXCEEDED naming it and by how much.
 */
export async function applyAws(
  run: ApplyContext,
  provider: AwsCloudProvider,
  scp: CompiledScp,
  guardrail: { key: string; slug: string; policyType: PackedPolicyType },
  live: DeploymentRow[],
  leaving: DeploymentRow[],
): Promise<void> {
  const { db, tenantId, options } = run;
  const hash = documentHash(scp.content);
  const targets = new Map<string, string>();
  for (const d of [...live, ...leaving]) if (d.connectorId) targets.set(d.scopeExternalId, d.connectorId);
  for (const [target, connectorId] of targets) {
    const here = live.filter((d) => d.scopeExternalId === target);
    const gone = leaving.filter((d) => d.scopeExternalId === target);
    const wanted = scp.attach && here.length > 0;
    let outcome: RepackOutcome;
    try {
      outcome = await repackTarget(
        { db, logger: run.logger, provider, tenantId, connectorId, target },
        { ...guardrail, content: wanted ? scp.content : undefined },
      );
    } catch (error) {
      rethrowTransient(error, options);
      const failure = cloudFailure(error, wanted ? "attach" : "detach", target);
      await failDeployments(run, here, failure);
      await updateDeployments(
        db,
        tenantId,
        gone.map((d) => d.id),
        { status: "DELETING", errorCode: failure.code, errorMessage: failure.message },
      );
      continue;
    }
    if (options.detectMissing && wanted && !outcome.wasPresent)
      await reportMissing(
        run,
        here,
        `guardrail ${guardrail.key} not found in the ${guardrail.policyType === "RESOURCE_CONTROL_POLICY" ? "RCPs" : "SCPs"} attached to ${target}`,
      );
    const refused = outcome.unplaced.get(guardrail.key);
    for (const deployment of here) {
      await updateDeployments(
        db,
        tenantId,
        [deployment.id],
        wanted && refused
          ? {
              status: "FAILED",
              errorCode: "POLICY_LIMIT_EXCEEDED",
              errorMessage: outcome.keptPrevious
                ? `${refused} The guardrail stays in force as it was before this change.`
                : refused,
            }
          : {
              nativeId: wanted ? (outcome.placed.get(guardrail.key) ?? null) : null,
              nativeDocumentHash: hash,
              status: "DEPLOYED",
              errorCode: null,
              errorMessage: null,
            },
      );
    }
    await updateDeployments(
      db,
      tenantId,
      gone.map((d) => d.id),
      { status: "DELETED", errorCode: null, errorMessage: null },
    );
  }
}

/**
 * Azure enforces a new or changed assignment minutes after the PUT returns: such a deployment is
 * PROPAGATING until then. Rewriting what the cloud already holds changes nothing: it is enforced,
 * or still propagating until the end stored when it was written.
 */
function propagation(
  deployment: DeploymentRow,
  provider: AzureCloudProvider,
  changed: boolean,
): { status: "DEPLOYED" | "PROPAGATING"; propagationEndsAt: Date | null } {
  const now = Date.now();
  const end = deployment.propagationEndsAt;
  if (!changed)
    return end && end.getTime() > now
      ? { status: "PROPAGATING", propagationEndsAt: end }
      : { status: "DEPLOYED", propagationEndsAt: null };
  return {
    status: "PROPAGATING",
    propagationEndsAt: new Date(now + provider.policyPropagationSeconds * 1_000),
  };
}

/** Where the definition is stored (the management group or subscription above the bundle's scopes), by name. */
function definitionScope(compiled: CompiledAzureBundle, live: DeploymentRow[]): string {
  const [scope = ""] = compiled.definition.id.split(/\/providers\/Microsoft\.Authorization\//i);
  const named = live.find((d) => d.scopeExternalId.toLowerCase() === scope.toLowerCase());
  const name = (named?.scope as { name?: string } | undefined)?.name;
  return name ? `${name} (${scope})` : scope;
}

/** Puts the definition, an assignment per scope and the exemptions; returns the waivers it could not place. */
export async function applyAzure(
  run: ApplyContext,
  provider: AzureCloudProvider,
  compiled: CompiledAzureBundle,
  live: DeploymentRow[],
  leaving: DeploymentRow[],
): Promise<Map<string, WaiverErrorCode>> {
  const { db, tenantId, options } = run;
  const waiverFailures = new Map<string, WaiverErrorCode>();
  try {
    await provider.putDefinition(compiled.definition);
  } catch (error) {
    rethrowTransient(error, options);
    await failDeployments(run, live, cloudFailure(error, "policy", definitionScope(compiled, live)));
    return waiverFailures;
  }
  const placed = new Set<string>();
  for (const deployment of live) {
    const assignment = compiled.assignments.find(
      (a) => a.properties.scope.toLowerCase() === deployment.scopeExternalId.toLowerCase(),
    );
    if (!assignment) continue;
    // What Azure enforces: the rule and the assignment (parameters, excluded scopes, message),
    // not its names and metadata.
    const {
      displayName: _name,
      description: _description,
      metadata: _metadata,
      ...enforced
    } = assignment.properties;
    const hash = documentHash(JSON.stringify([compiled.definition.properties.policyRule, enforced]));
    try {
      let missing = false;
      if (
        inCloud(deployment.status) &&
        deployment.nativeId &&
        !(await provider.assignmentExists(deployment.nativeId))
      ) {
        missing = true;
        await reportMissing(
          run,
          [deployment],
          `The policy assignment ${deployment.nativeId} was removed from ${deployment.scopeExternalId} outside Palisade; Palisade redeployed it.`,
        );
      }
      const id = await provider.putAssignment(assignment);
      placed.add(assignment.id);
      await updateDeployments(db, tenantId, [deployment.id], {
        nativeId: id,
        nativeDocumentHash: hash,
        ...propagation(
          deployment,
          provider,
          missing || !deployment.nativeId || deployment.nativeDocumentHash !== hash,
        ),
        errorCode: null,
        errorMessage: null,
      });
    } catch (error) {
      rethrowTransient(error, options);
      await failDeployments(run, [deployment], cloudFailure(error, "attach", deployment.scopeExternalId));
    }
  }
  for (const exemption of compiled.exemptions) {
    const waiverId = exemption.properties.metadata.palisade.waiverId;
    if (!placed.has(exemption.properties.policyAssignmentId)) {
      waiverFailures.set(waiverId, "WAIVER_CREATION_FAILED");
      continue;
    }
    try {
      await provider.putExemption(exemption);
    } catch (error) {
      rethrowTransient(error, options);
      waiverFailures.set(waiverId, waiverFailure(error));
    }
  }
  for (const deployment of leaving) {
    try {
      if (deployment.nativeId) await provider.removeAssignment(deployment.nativeId);
      await updateDeployments(db, tenantId, [deployment.id], {
        status: "DELETED",
        errorCode: null,
        errorMessage: null,
      });
    } catch (error) {
      rethrowTransient(error, options);
      const failure = cloudFailure(error, "delete", deployment.scopeExternalId);
      await updateDeployments(db, tenantId, [deployment.id], {
        status: "DELETING",
        errorCode: failure.code,
        errorMessage: failure.message,
      });
    }
  }
  return waiverFailures;
}
