import type { CompiledScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import type { CompiledAzureBundle } from "@palisade/policy-engine/compilers/azure/compile-azure";
import type { AwsCloudProvider, AzureCloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import type { Logger } from "../../logger";
import { recordMissingDeployment } from "../event/record-event";
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

async function reportMissing(run: ApplyContext, rows: DeploymentRow[], reason: string): Promise<void> {
  const detectedAt = new Date();
  for (const deployment of rows.filter((d) => d.status === "DEPLOYED")) {
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

/** Puts the SCP, attaches it where the bundle wants it and detaches it elsewhere. */
export async function applyAws(
  run: ApplyContext,
  provider: AwsCloudProvider,
  scp: CompiledScp,
  live: DeploymentRow[],
  leaving: DeploymentRow[],
): Promise<void> {
  const { db, tenantId, options } = run;
  const existingId = [...live, ...leaving].find((d) => d.nativeId)?.nativeId ?? undefined;
  if (options.detectMissing) {
    const found = await provider.findScpByName(scp.name);
    if (!found)
      await reportMissing(
        run,
        live,
        `SCP ${scp.name} (${existingId ?? "no id"}) not found in the organisation`,
      );
  }
  let ref: Awaited<ReturnType<AwsCloudProvider["putScp"]>>;
  try {
    ref = await provider.putScp(scp, existingId);
  } catch (error) {
    rethrowTransient(error, options);
    await failDeployments(run, live, cloudFailure(error, "policy"));
    return;
  }
  const wanted = new Set(scp.attach ? scp.targets : []);
  const current = new Set(await provider.listScpTargets(ref.id));
  const failures = new Map<string, Failure<DeploymentErrorCode>>();
  // Attach first: a target that would lose its last SCP refuses the detach.
  for (const target of wanted) {
    if (current.has(target)) continue;
    try {
      await provider.attachScp(ref.id, target);
    } catch (error) {
      rethrowTransient(error, options);
      failures.set(target, cloudFailure(error, "attach", target));
    }
  }
  for (const target of current) {
    if (wanted.has(target)) continue;
    try {
      await provider.detachScp(ref.id, target);
    } catch (error) {
      rethrowTransient(error, options);
      failures.set(target, cloudFailure(error, "detach", target));
    }
  }
  const hash = documentHash(scp.content);
  for (const deployment of live) {
    const failure = failures.get(deployment.scopeExternalId);
    await updateDeployments(db, tenantId, [deployment.id], {
      nativeId: ref.id,
      nativeDocumentHash: hash,
      status: failure ? "FAILED" : "DEPLOYED",
      errorCode: failure?.code ?? null,
      errorMessage: failure?.message ?? null,
    });
  }
  for (const deployment of leaving) {
    const failure = failures.get(deployment.scopeExternalId);
    await updateDeployments(
      db,
      tenantId,
      [deployment.id],
      failure
        ? { status: "DELETING", errorCode: failure.code, errorMessage: failure.message }
        : { status: "DELETED", errorCode: null, errorMessage: null },
    );
  }
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
    await failDeployments(run, live, cloudFailure(error, "policy"));
    return waiverFailures;
  }
  const placed = new Set<string>();
  const hash = documentHash(JSON.stringify(compiled.definition.properties.policyRule));
  for (const deployment of live) {
    const assignment = compiled.assignments.find(
      (a) => a.properties.scope.toLowerCase() === deployment.scopeExternalId.toLowerCase(),
    );
    if (!assignment) continue;
    try {
      if (
        deployment.status === "DEPLOYED" &&
        deployment.nativeId &&
        !(await provider.assignmentExists(deployment.nativeId))
      ) {
        await reportMissing(
          run,
          [deployment],
          `policy assignment ${deployment.nativeId} not found at ${deployment.scopeExternalId}`,
        );
      }
      const id = await provider.putAssignment(assignment);
      placed.add(assignment.id);
      await updateDeployments(db, tenantId, [deployment.id], {
        nativeId: id,
        nativeDocumentHash: hash,
        status: "DEPLOYED",
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
