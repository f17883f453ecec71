import { AWS_POLICY_TYPE_OF_ENFORCER } from "@palisade/policy-engine/catalogue/definition-schema";
import type { ActiveWaiver } from "@palisade/policy-engine/compilers/compile-input";
import { CompileError } from "@palisade/policy-engine/compilers/compile-input";
import type { CloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { createKeyedLock } from "../../lib/keyed-lock";
import { policyQuotasFor } from "../connector/connector-api";
import {
  isEnforceable,
  markWaiversEnforced,
  markWaiversFailed,
  markWaiversPropagating,
  markWaiversWithdrawn,
  type WaiverRow,
  waiversOfBundle,
} from "../waiver/waiver-api";
import {
  type ApplyContext,
  applyAws,
  applyAzure,
  failDeployments,
  inCloud,
  type RunOptions,
  rethrowTransient,
  TransientCloudError,
} from "./bundle-apply";
import { baseInput, compileWithWaivers, exemptionIds, toActiveWaiver } from "./bundle-compile";
import { removeBundleNow } from "./bundle-remove";
import { findBundle, type StoredScope } from "./bundle-repository";
import { cloudFailure, compileFailure, type WaiverErrorCode } from "./cloud-failure";
import { applyAwsDeclarative, parentOfConnector } from "./declarative-apply";
import { findDeploymentsOfBundle } from "./deployment-repository";
import { definitionsOf, type EngineDeps, finishBundle, providerOf } from "./engine-context";
import {
  listBundlesBeingDeleted,
  listBundlesBeingDeletedAnyTenant,
  listLiveBundles,
  listLiveBundlesAnyTenant,
  updateDeployments,
} from "./sync-state-repository";
import { compareExemptions, RECONCILIATION_CODE, recordMismatch } from "./waiver-reconcile";

/**
 * Records what the cloud did with each waiver of the bundle. With `propagation` (Azure), a waiver
 * newly written to the cloud is honoured only once it ends.
 */
async function recordWaiverOutcome(
  db: Database,
  tenantId: string,
  rows: WaiverRow[],
  enforceable: ActiveWaiver[],
  failures: Map<string, WaiverErrorCode>,
  placedDeployments: Set<string>,
  now: Date,
  propagation: { endsAt: Date; restored: Set<string> } | undefined,
): Promise<void> {
  const enforcedIds = new Set(enforceable.map((w) => w.id));
  const active: string[] = [];
  const arriving: string[] = [];
  const left: string[] = [];
  const failed = new Map<string, string[]>();
  for (const row of rows) {
    if (enforcedIds.has(row.id)) {
      const code =
        failures.get(row.id) ??
        (placedDeployments.has(row.deploymentId) ? undefined : "WAIVER_CREATION_FAILED");
      if (code) failed.set(code, [...(failed.get(code) ?? []), row.id]);
      else if (propagation?.restored.has(row.id)) arriving.push(row.id);
      else if (row.deploymentStatus === "ACTIVE") {
        if (row.errorCode) active.push(row.id);
      } else if (!propagation) active.push(row.id);
      else if (row.deploymentStatus !== "PROPAGATING" || row.errorCode) arriving.push(row.id);
    } else if (inCloudWaiver(row.deploymentStatus) && !isEnforceable(row, now)) {
      // Out of the cloud again; the waiver's own status says why.
      left.push(row.id);
    }
  }
  await markWaiversEnforced(db, tenantId, active);
  if (propagation) await markWaiversPropagating(db, tenantId, arriving, propagation.endsAt);
  await markWaiversWithdrawn(db, tenantId, left);
  for (const [code, ids] of failed) await markWaiversFailed(db, tenantId, ids, code);
}

const inCloudWaiver = (deploymentStatus: string) =>
  deploymentStatus === "ACTIVE" || deploymentStatus === "PROPAGATING";

/**
 * Applies bundles to the cloud. Every entry point reads the current database state and makes the
 * cloud match it, so running one twice (a retried or restarted job) changes nothing the second time.
 */
export function createBundleEngine(deps: EngineDeps) {
  const { db, logger } = deps;
  // Two syncs of one bundle must not interleave, in this process or on another replica.
  const local = createKeyedLock();
  const exclusive = <T>(bundleId: string, work: () => Promise<T>): Promise<T> =>
    local(bundleId, () => (deps.lock ? deps.lock(`bundle:${bundleId}`, work) : work()));

  /**
   * Makes the cloud match the bundle: its policy with the current parameters, mode, scopes,
   * excluded scopes and enforceable waivers; scopes no longer targeted lose it.
   */
  async function syncBundle(tenantId: string, bundleId: string, options: RunOptions): Promise<void> {
    const before = deps.onBundleFailed ? (await findBundle(db, tenantId, bundleId))?.status : undefined;
    await applyBundle(tenantId, bundleId, options);
    if (deps.onBundleFailed && before !== "FAILED") {
      const after = await findBundle(db, tenantId, bundleId);
      if (after?.status === "FAILED" && !after.deletedAt) await deps.onBundleFailed(tenantId, bundleId);
    }
  }

  async function applyBundle(tenantId: string, bundleId: string, options: RunOptions): Promise<void> {
    await exclusive(bundleId, async () => {
      const bundle = await findBundle(db, tenantId, bundleId);
      if (!bundle) return;
      if (bundle.deletedAt) return removeBundleNow(deps, bundle, options);
      const run: ApplyContext = { db, logger, tenantId, options };
      const all = await findDeploymentsOfBundle(db, tenantId, bundle.id);
      const live = all.filter((d) => d.status !== "DELETED" && d.status !== "DELETING");
      const leaving = all.filter((d) => d.status === "DELETING");
      const fresh = live.filter((d) => !inCloud(d.status));
      if (fresh.length > 0) {
        await updateDeployments(
          db,
          tenantId,
          fresh.map((d) => d.id),
          { status: "EVALUATING" },
        );
        await finishBundle(db, bundle);
      }

      const { definition, all: definitions } = await definitionsOf(deps, bundle);
      if (!definition) {
        await failDeployments(run, live, {
          code: "CREATE_POLICY_PROVIDER_FAILED",
          message: `The policy definition ${bundle.policySlug} no longer exists; delete the bundle or restore the definition.`,
        });
        return finishBundle(db, bundle);
      }
      const waiverRows = await waiversOfBundle(db, tenantId, bundle.id);
      const now = new Date();
      const byId = new Map(all.map((d) => [d.id, d]));
      const enforceable = waiverRows
        .filter((w) => isEnforceable(w, now))
        .map((w) => toActiveWaiver(w, byId.get(w.deploymentId)));
      const connectorId = live.find((d) => d.connectorId)?.connectorId ?? null;
      const quotas = await policyQuotasFor(
        db,
        tenantId,
        connectorId,
        definition.enforcer === "azure_policy"
          ? "SERVICE_CONTROL_POLICY"
          : AWS_POLICY_TYPE_OF_ENFORCER[definition.enforcer],
      );
      const input = {
        ...baseInput(
          bundle,
          definition,
          definitions,
          live.map((d) => d.scope as StoredScope),
          deps.publicUrl,
        ),
        scpMaxCharacters: quotas.characters,
        rcpMaxCharacters: quotas.characters,
        declarativeMaxCharacters: quotas.characters,
        // A declarative waiver leaves its account out of the targets: the compiler needs the tree.
        ...(definition.enforcer === "aws_declarative_ec2"
          ? { parentOf: await parentOfConnector(db, tenantId, connectorId) }
          : {}),
      };

      let compiled: ReturnType<typeof compileWithWaivers>;
      try {
        compiled = compileWithWaivers(input, enforceable);
      } catch (error) {
        if (!(error instanceof CompileError)) throw error;
        await failDeployments(run, live, compileFailure(error));
        return finishBundle(db, bundle);
      }

      let provider: CloudProvider;
      try {
        provider = await providerOf(deps, bundle, all);
      } catch (error) {
        rethrowTransient(error, options);
        await failDeployments(
          run,
          live,
          error instanceof CompileError ? compileFailure(error) : cloudFailure(error, "policy"),
        );
        return finishBundle(db, bundle);
      }

      const waiverFailures = new Map<string, WaiverErrorCode>(compiled.rejected);
      // Waivers whose exemption the cloud refused to remove, and those removed at last after such a refusal.
      const stuck: string[] = [];
      const removedAfterFailure: string[] = [];
      // Set when a reconcile finds waivers in the cloud that Palisade does not know, or the reverse.
      const reconciliation: string[] = [];
      // Waivers whose exemption the cloud lost: written again, they propagate again.
      const restored = new Set<string>();
      if (compiled.compiled.provider === "aws" && provider.provider === "aws") {
        await applyAws(
          run,
          provider,
          compiled.compiled.scp,
          { key: bundle.key, slug: bundle.policySlug, policyType: compiled.compiled.policyType },
          live,
          leaving,
        );
      } else if (compiled.compiled.provider === "aws_declarative" && provider.provider === "aws") {
        await applyAwsDeclarative(run, provider, compiled.compiled.declarative, live, leaving);
      } else if (compiled.compiled.provider === "azure" && provider.provider === "azure") {
        if (options.detectMissing) {
          // Before the sync puts the enforceable exemptions back: what did the cloud gain or lose?
          const known = new Set(
            waiverRows
              .filter((w) => w.status !== "PENDING" && w.status !== "REJECTED")
              .flatMap((w) => exemptionIds(input, toActiveWaiver(w, byId.get(w.deploymentId))))
              .map((id) => id.toLowerCase()),
          );
          try {
            const mismatch = await compareExemptions(
              provider,
              live,
              compiled.compiled.azure.exemptions,
              waiverRows,
              known,
            );
            await recordMismatch(db, logger, bundle, mismatch);
            for (const { waiverId } of mismatch.missing) restored.add(waiverId);
            if (mismatch.unknown.length > 0 || mismatch.missing.length > 0)
              reconciliation.push(RECONCILIATION_CODE);
          } catch (error) {
            rethrowTransient(error, options);
            logger.warn(
              { bundleId: bundle.id, err: (error as Error).message },
              "exemptions could not be compared",
            );
          }
        }
        const failures = await applyAzure(run, provider, compiled.compiled.azure, live, leaving);
        for (const [id, code] of failures) waiverFailures.set(id, code);
        // Waivers no longer enforceable leave the cloud.
        for (const waiver of waiverRows) {
          const enforced = enforceable.some((w) => w.id === waiver.id) && !waiverFailures.has(waiver.id);
          if (enforced || waiver.deploymentStatus === "PENDING") continue;
          let removed = true;
          for (const id of exemptionIds(input, toActiveWaiver(waiver, byId.get(waiver.deploymentId)))) {
            try {
              await provider.removeExemption(id);
            } catch (error) {
              rethrowTransient(error, options);
              removed = false;
              logger.warn({ waiverId: waiver.id, err: (error as Error).message }, "exemption removal failed");
            }
          }
          if (!removed) stuck.push(waiver.id);
          else if (waiver.errorCode === "WAIVER_DELETION_FAILED") removedAfterFailure.push(waiver.id);
        }
      } else {
        await failDeployments(run, live, {
          code: "CLOUD_INVALID_SCOPE",
          message: `The bundle's ${definition.enforcer} policy cannot be deployed through a ${provider.provider} connector.`,
        });
        return finishBundle(db, bundle);
      }

      const after = await findDeploymentsOfBundle(db, tenantId, bundle.id);
      const placed = new Set(after.filter((d) => inCloud(d.status)).map((d) => d.id));
      const propagation =
        provider.provider === "azure"
          ? { endsAt: new Date(Date.now() + provider.policyPropagationSeconds * 1_000), restored }
          : undefined;
      await recordWaiverOutcome(
        db,
        tenantId,
        waiverRows,
        enforceable,
        waiverFailures,
        placed,
        now,
        propagation,
      );
      // Whatever propagates now is settled when its time comes.
      const ends = after.flatMap((d) =>
        d.status === "PROPAGATING" && d.propagationEndsAt ? [d.propagationEndsAt.getTime()] : [],
      );
      if (propagation) ends.push(propagation.endsAt.getTime());
      for (const end of new Set(ends)) await deps.onPropagating?.(new Date(end));
      // The cloud still holds these exemptions although the waivers ended: the next sync tries again.
      await markWaiversWithdrawn(db, tenantId, removedAfterFailure);
      if (stuck.length > 0) await markWaiversFailed(db, tenantId, stuck, "WAIVER_DELETION_FAILED");
      await finishBundle(db, bundle, [
        ...waiverFailures.values(),
        ...(stuck.length > 0 ? ["WAIVER_DELETION_FAILED"] : []),
        ...(reconciliation.length > 0
          ? reconciliation
          : // Between reconciles, a discrepancy found by the last one stays reported.
            !options.detectMissing && bundle.errorCodes.includes(RECONCILIATION_CODE)
            ? [RECONCILIATION_CODE]
            : []),
      ]);
    });
  }

  return {
    syncBundle,
    /** Whether a deployment of the bundle failed because the cloud could not be reached. */
    async cloudUnreachable(tenantId: string, bundleId: string): Promise<boolean> {
      const rows = await findDeploymentsOfBundle(db, tenantId, bundleId);
      return rows.some((d) => d.status === "FAILED" && d.errorCode === "DEPLOYMENT_SYNC_FAILED");
    },
    removeBundle(tenantId: string, bundleId: string, options: RunOptions) {
      return exclusive(bundleId, async () => {
        const bundle = await findBundle(db, tenantId, bundleId);
        if (bundle?.deletedAt) await removeBundleNow(deps, bundle, options);
      });
    },
    /**
     * Compares the cloud with the database and repairs it: a policy removed out of band is reported
     * as missing and restored, a changed one rewritten, a deleted bundle's leftovers removed. Without
     * a tenant, every tenant's bundles.
     */
    async reconcile(filter: { tenantId?: string; bundleId?: string }, options: RunOptions): Promise<void> {
      const { tenantId, bundleId } = filter;
      const deleting = tenantId
        ? await listBundlesBeingDeleted(db, tenantId)
        : await listBundlesBeingDeletedAnyTenant(db);
      for (const bundle of deleting) {
        if (bundleId && bundle.id !== bundleId) continue;
        await exclusive(bundle.id, () => removeBundleNow(deps, bundle, options));
      }
      const live = tenantId
        ? await listLiveBundles(db, tenantId, bundleId)
        : await listLiveBundlesAnyTenant(db, bundleId);
      for (const bundle of live) {
        try {
          await syncBundle(bundle.tenantId, bundle.id, { ...options, detectMissing: true });
        } catch (error) {
          if (error instanceof TransientCloudError) throw error;
          logger.error(
            { bundleId: bundle.id, err: (error as Error).message },
            "reconcile of a bundle failed",
          );
        }
      }
    },
  };
}

export type BundleEngine = ReturnType<typeof createBundleEngine>;
