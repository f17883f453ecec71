import { createHash } from "node:crypto";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { type CompiledScp, compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import {
  type CompiledAzureBundle,
  compileAzureBundle,
} from "@palisade/policy-engine/compilers/azure/compile-azure";
import {
  type ActiveWaiver,
  type CompileBundleInput,
  CompileError,
} from "@palisade/policy-engine/compilers/compile-input";
import { and, eq } from "drizzle-orm";
import type { AwsCloudProvider, AzureCloudProvider, CloudProvider } from "../../cloud/cloud-provider";
import type { Database } from "../../db/database";
import { bundles } from "../../db/schema/deployments";
import type { Logger } from "../../logger";
import { findConnector } from "../connector/connector-repository";
import type { ConnectorRuntime } from "../connector/connector-runtime";
import { recordMissingDeployment } from "../event/record-event";
import { loadTenantCatalogue } from "../policy-definition/tenant-catalogue";
import { markWaiversEnforced, markWaiversFailed, markWaiversWithdrawn } from "../waiver/waiver-lifecycle";
import { type WaiverRow, waiversOfBundle } from "../waiver/waiver-repository";
import { isEnforceable } from "../waiver/waiver-rules";
import {
  bundleStatus,
  cloudFailure,
  compileFailure,
  type DeploymentErrorCode,
  type Failure,
  isTransient,
  type WaiverErrorCode,
  waiverFailure,
} from "./cloud-failure";
import {
  type BundleRow,
  type DeploymentRow,
  findDeploymentsOfBundle,
  listBundlesBeingDeleted,
  listLiveBundles,
  type StoredScope,
  updateDeployments,
} from "./deployment-repository";

export interface EngineDeps {
  db: Database;
  catalogue: Catalogue;
  runtime: ConnectorRuntime;
  /** Public address of Palisade, for the waiver links in deny messages. */
  publicUrl: string;
  logger: Logger;
}

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

type Compiled = { provider: "aws"; scp: CompiledScp } | { provider: "azure"; azure: CompiledAzureBundle };

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

function toActiveWaiver(waiver: WaiverRow, deployment: DeploymentRow | undefined): ActiveWaiver {
  const named = waiver.principalArn ?? waiver.resource ?? waiver.scope;
  return {
    id: waiver.id,
    key: waiver.policyKey,
    expiresAt: waiver.expiresAt ?? new Date(0),
    principalArn: waiver.principalArn ?? undefined,
    resource: waiver.resource ?? undefined,
    // A waiver naming nothing exempts its deployment's whole scope.
    scope: waiver.scope ?? (named ? undefined : deployment?.scopeExternalId),
  };
}

/**
 * Applies bundles to the cloud. Every entry point reads the current database state and makes the
 * cloud match it, so running one twice (a retried or restarted job) changes nothing the second time.
 */
export function createBundleEngine(deps: EngineDeps) {
  const { db, runtime, logger } = deps;
  const locks = new Map<string, Promise<unknown>>();

  /** One run per bundle at a time in this process: two syncs of a bundle must not interleave. */
  function exclusive<T>(bundleId: string, run: () => Promise<T>): Promise<T> {
    const previous = locks.get(bundleId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(run);
    locks.set(bundleId, next);
    void next
      .finally(() => {
        if (locks.get(bundleId) === next) locks.delete(bundleId);
      })
      .catch(() => {});
    return next;
  }

  async function loadBundle(tenantId: string, bundleId: string): Promise<BundleRow | undefined> {
    const [row] = await db
      .select()
      .from(bundles)
      .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, bundleId)))
      .limit(1);
    return row;
  }

  async function definitionOf(
    bundle: BundleRow,
  ): Promise<{ definition?: Definition; all: Map<string, Definition> }> {
    const view = await loadTenantCatalogue(db, deps.catalogue, bundle.tenantId);
    const all = new Map(view.definitions.map((entry) => [entry.definition.slug, entry.definition]));
    return { definition: all.get(bundle.policySlug), all };
  }

  function compile(input: CompileBundleInput): Compiled {
    return input.definition.enforcer === "aws_scp"
      ? { provider: "aws", scp: compileScp(input) }
      : { provider: "azure", azure: compileAzureBundle(input) };
  }

  async function providerOf(bundle: BundleRow, deployments: DeploymentRow[]): Promise<CloudProvider> {
    const connectorId = deployments.find((d) => d.connectorId)?.connectorId;
    const connector = connectorId ? await findConnector(db, bundle.tenantId, connectorId) : undefined;
    if (!connector) {
      throw new CompileError(
        "CLOUD_INVALID_SCOPE",
        "The connector of the bundle's scopes was removed; add it again or move the bundle to other scopes",
      );
    }
    return runtime.providerFor(connector);
  }

  async function finishBundle(bundle: BundleRow, waiverCodes: string[] = []): Promise<void> {
    const rows = await findDeploymentsOfBundle(db, bundle.id);
    const status = bundle.deletedAt ? "DELETED" : bundleStatus(rows.map((d) => d.status));
    const codes = [
      ...new Set([...rows.map((d) => d.errorCode).filter((c): c is string => Boolean(c)), ...waiverCodes]),
    ];
    await db.update(bundles).set({ status, errorCodes: codes }).where(eq(bundles.id, bundle.id));
  }

  async function fail(rows: DeploymentRow[], failure: Failure<DeploymentErrorCode>): Promise<void> {
    await updateDeployments(
      db,
      rows.map((d) => d.id),
      { status: "FAILED", errorCode: failure.code, errorMessage: failure.message },
    );
  }

  /** Throttling and unreachable clouds are retried by the job, except on its last attempt. */
  function rethrowTransient(error: unknown, options: RunOptions): void {
    if (isTransient(error) && !options.lastAttempt) {
      throw new TransientCloudError((error as Error).message ?? String(error));
    }
  }

  function baseInput(
    bundle: BundleRow,
    definition: Definition,
    all: Map<string, Definition>,
    scopes: StoredScope[],
  ) {
    return {
      definition,
      definitions: all,
      parameters: bundle.parameters as Record<string, unknown>,
      mode: bundle.mode as "PREVENT" | "ALERT",
      key: bundle.key,
      name: bundle.name,
      scopes: scopes.map((scope) => ({ id: scope.externalId, displayName: scope.name })),
      excludedScopes: (bundle.excludedScopes as StoredScope[]).map((scope) => ({
        id: scope.externalId,
        displayName: scope.name,
      })),
      waiverLinkBaseUrl: deps.publicUrl,
      now: new Date(),
    } satisfies Omit<CompileBundleInput, "waivers">;
  }

  /**
   * Compiles the bundle with as many enforceable waivers as fit: each waiver is added on its own,
   * so one that cannot be expressed (bad scope, document over the size limit) fails alone.
   */
  function compileWithWaivers(
    input: Omit<CompileBundleInput, "waivers">,
    enforceable: ActiveWaiver[],
  ): { compiled: Compiled; accepted: ActiveWaiver[]; rejected: Map<string, WaiverErrorCode> } {
    let compiled = compile({ ...input, waivers: [] });
    const accepted: ActiveWaiver[] = [];
    const rejected = new Map<string, WaiverErrorCode>();
    for (const waiver of [...enforceable].sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())) {
      try {
        compiled = compile({ ...input, waivers: [...accepted, waiver] });
        accepted.push(waiver);
      } catch (error) {
        if (!(error instanceof CompileError)) throw error;
        rejected.set(waiver.id, waiverFailure(error));
      }
    }
    return { compiled, accepted, rejected };
  }

  /** Ids of the Azure exemptions a waiver would have: the compiler names them deterministically. */
  function exemptionIds(input: Omit<CompileBundleInput, "waivers">, waiver: ActiveWaiver): string[] {
    try {
      const future = new Date(input.now.getTime() + 3_600_000);
      const compiled = compileAzureBundle({ ...input, waivers: [{ ...waiver, expiresAt: future }] });
      return compiled.exemptions.map((exemption) => exemption.id);
    } catch {
      return [];
    }
  }

  async function applyAws(
    provider: AwsCloudProvider,
    scp: CompiledScp,
    live: DeploymentRow[],
    leaving: DeploymentRow[],
    options: RunOptions,
  ): Promise<void> {
    const existingId = [...live, ...leaving].find((d) => d.nativeId)?.nativeId ?? undefined;
    if (options.detectMissing) {
      const found = await provider.findScpByName(scp.name);
      if (!found)
        await reportMissing(live, `SCP ${scp.name} (${existingId ?? "no id"}) not found in the organisation`);
    }
    let ref: Awaited<ReturnType<AwsCloudProvider["putScp"]>>;
    try {
      ref = await provider.putScp(scp, existingId);
    } catch (error) {
      rethrowTransient(error, options);
      await fail(live, cloudFailure(error, "policy"));
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
    const documentHash = hash(scp.content);
    for (const deployment of live) {
      const failure = failures.get(deployment.scopeExternalId);
      await updateDeployments(db, [deployment.id], {
        nativeId: ref.id,
        nativeDocumentHash: documentHash,
        status: failure ? "FAILED" : "DEPLOYED",
        errorCode: failure?.code ?? null,
        errorMessage: failure?.message ?? null,
      });
    }
    for (const deployment of leaving) {
      const failure = failures.get(deployment.scopeExternalId);
      await updateDeployments(
        db,
        [deployment.id],
        failure
          ? { status: "DELETING", errorCode: failure.code, errorMessage: failure.message }
          : { status: "DELETED", errorCode: null, errorMessage: null },
      );
    }
  }

  async function applyAzure(
    provider: AzureCloudProvider,
    compiled: CompiledAzureBundle,
    live: DeploymentRow[],
    leaving: DeploymentRow[],
    options: RunOptions,
  ): Promise<Map<string, WaiverErrorCode>> {
    const waiverFailures = new Map<string, WaiverErrorCode>();
    try {
      await provider.putDefinition(compiled.definition);
    } catch (error) {
      rethrowTransient(error, options);
      await fail(live, cloudFailure(error, "policy"));
      return waiverFailures;
    }
    const placed = new Set<string>();
    const documentHash = hash(JSON.stringify(compiled.definition.properties.policyRule));
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
            [deployment],
            `policy assignment ${deployment.nativeId} not found at ${deployment.scopeExternalId}`,
          );
        }
        const id = await provider.putAssignment(assignment);
        placed.add(assignment.id);
        await updateDeployments(db, [deployment.id], {
          nativeId: id,
          nativeDocumentHash: documentHash,
          status: "DEPLOYED",
          errorCode: null,
          errorMessage: null,
        });
      } catch (error) {
        rethrowTransient(error, options);
        await fail([deployment], cloudFailure(error, "attach", deployment.scopeExternalId));
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
        await updateDeployments(db, [deployment.id], {
          status: "DELETED",
          errorCode: null,
          errorMessage: null,
        });
      } catch (error) {
        rethrowTransient(error, options);
        const failure = cloudFailure(error, "delete", deployment.scopeExternalId);
        await updateDeployments(db, [deployment.id], {
          status: "DELETING",
          errorCode: failure.code,
          errorMessage: failure.message,
        });
      }
    }
    return waiverFailures;
  }

  async function reportMissing(rows: DeploymentRow[], reason: string): Promise<void> {
    const detectedAt = new Date();
    for (const deployment of rows.filter((d) => d.status === "DEPLOYED")) {
      await recordMissingDeployment(db, {
        tenantId: deployment.tenantId,
        deploymentId: deployment.id,
        detectedAt,
        nativeId: deployment.nativeId,
        reason,
      });
      logger.warn({ deploymentId: deployment.id, reason }, "deployment missing from the cloud; restoring it");
    }
  }

  /**
   * Makes the cloud match the bundle: its policy with the current parameters, mode, scopes,
   * excluded scopes and enforceable waivers; scopes no longer targeted lose it.
   */
  async function syncBundle(tenantId: string, bundleId: string, options: RunOptions): Promise<void> {
    await exclusive(bundleId, async () => {
      const bundle = await loadBundle(tenantId, bundleId);
      if (!bundle) return;
      if (bundle.deletedAt) return removeBundleNow(bundle, options);
      const all = await findDeploymentsOfBundle(db, bundle.id);
      const live = all.filter((d) => d.status !== "DELETED" && d.status !== "DELETING");
      const leaving = all.filter((d) => d.status === "DELETING");
      const fresh = live.filter((d) => d.status !== "DEPLOYED");
      if (fresh.length > 0) {
        await updateDeployments(
          db,
          fresh.map((d) => d.id),
          { status: "EVALUATING" },
        );
        await finishBundle(bundle);
      }

      const { definition, all: definitions } = await definitionOf(bundle);
      if (!definition) {
        await fail(live, {
          code: "CREATE_POLICY_PROVIDER_FAILED",
          message: `The policy definition ${bundle.policySlug} no longer exists; delete the bundle or restore the definition.`,
        });
        return finishBundle(bundle);
      }
      const waiverRows = await waiversOfBundle(db, bundle.tenantId, bundle.id);
      const now = new Date();
      const byId = new Map(all.map((d) => [d.id, d]));
      const enforceable = waiverRows
        .filter((w) => isEnforceable(w, now))
        .map((w) => toActiveWaiver(w, byId.get(w.deploymentId)));
      const input = baseInput(
        bundle,
        definition,
        definitions,
        live.map((d) => d.scope as StoredScope),
      );

      let compiled: ReturnType<typeof compileWithWaivers>;
      try {
        compiled = compileWithWaivers(input, enforceable);
      } catch (error) {
        if (!(error instanceof CompileError)) throw error;
        await fail(live, compileFailure(error));
        return finishBundle(bundle);
      }

      let provider: CloudProvider;
      try {
        provider = await providerOf(bundle, all);
      } catch (error) {
        rethrowTransient(error, options);
        await fail(
          live,
          error instanceof CompileError ? compileFailure(error) : cloudFailure(error, "policy"),
        );
        return finishBundle(bundle);
      }

      const waiverFailures = new Map(compiled.rejected);
      if (compiled.compiled.provider === "aws" && provider.provider === "aws") {
        await applyAws(provider, compiled.compiled.scp, live, leaving, options);
      } else if (compiled.compiled.provider === "azure" && provider.provider === "azure") {
        const failures = await applyAzure(provider, compiled.compiled.azure, live, leaving, options);
        for (const [id, code] of failures) waiverFailures.set(id, code);
        // Waivers no longer enforceable leave the cloud.
        for (const waiver of waiverRows) {
          const enforced = enforceable.some((w) => w.id === waiver.id) && !waiverFailures.has(waiver.id);
          if (enforced || waiver.deploymentStatus === "PENDING") continue;
          for (const id of exemptionIds(input, toActiveWaiver(waiver, byId.get(waiver.deploymentId)))) {
            try {
              await provider.removeExemption(id);
            } catch (error) {
              rethrowTransient(error, options);
              logger.warn({ waiverId: waiver.id, err: (error as Error).message }, "exemption removal failed");
            }
          }
        }
      } else {
        await fail(live, {
          code: "CLOUD_INVALID_SCOPE",
          message: `The bundle's ${definition.enforcer} policy cannot be deployed through a ${provider.provider} connector.`,
        });
        return finishBundle(bundle);
      }

      const deployed = new Set(
        (await findDeploymentsOfBundle(db, bundle.id))
          .filter((d) => d.status === "DEPLOYED")
          .map((d) => d.id),
      );
      await recordWaiverOutcome(bundle.tenantId, waiverRows, enforceable, waiverFailures, deployed, now);
      await finishBundle(bundle, [...waiverFailures.values()]);
    });
  }

  async function recordWaiverOutcome(
    tenantId: string,
    rows: WaiverRow[],
    enforceable: ActiveWaiver[],
    failures: Map<string, WaiverErrorCode>,
    deployedDeployments: Set<string>,
    now: Date,
  ): Promise<void> {
    const enforcedIds = new Set(enforceable.map((w) => w.id));
    const active: string[] = [];
    const left: string[] = [];
    const failed = new Map<string, string[]>();
    for (const row of rows) {
      if (enforcedIds.has(row.id)) {
        const code =
          failures.get(row.id) ??
          (deployedDeployments.has(row.deploymentId) ? undefined : "WAIVER_CREATION_FAILED");
        if (code) failed.set(code, [...(failed.get(code) ?? []), row.id]);
        else if (row.deploymentStatus !== "ACTIVE" || row.errorCode) active.push(row.id);
      } else if (row.deploymentStatus === "ACTIVE" && !isEnforceable(row, now)) {
        // Out of the cloud again; the waiver's own status says why.
        left.push(row.id);
      }
    }
    await markWaiversEnforced(db, tenantId, active);
    await markWaiversWithdrawn(db, tenantId, left);
    for (const [code, ids] of failed) await markWaiversFailed(db, tenantId, ids, code);
  }

  /** Removes a deleted bundle from the cloud: its SCP, or its exemptions, assignments and definition. */
  async function removeBundleNow(bundle: BundleRow, options: RunOptions): Promise<void> {
    const all = await findDeploymentsOfBundle(db, bundle.id);
    const remaining = all.filter((d) => d.status !== "DELETED");
    if (remaining.length === 0) return finishBundle(bundle);
    let provider: CloudProvider;
    try {
      provider = await providerOf(bundle, all);
    } catch (error) {
      rethrowTransient(error, options);
      // Without a connector there is nothing Palisade can reach any more.
      await updateDeployments(
        db,
        remaining.map((d) => d.id),
        { status: "DELETED" },
      );
      return finishBundle(bundle);
    }
    const { definition, all: definitions } = await definitionOf(bundle);
    const input = definition
      ? baseInput(
          bundle,
          definition,
          definitions,
          all.map((d) => d.scope as StoredScope),
        )
      : undefined;
    try {
      if (provider.provider === "aws") {
        const ids = new Set(all.map((d) => d.nativeId).filter((id): id is string => Boolean(id)));
        if (input) {
          try {
            const found = await provider.findScpByName(compileScp({ ...input, waivers: [] }).name);
            if (found) ids.add(found.id);
          } catch (error) {
            if (!(error instanceof CompileError)) throw error;
          }
        }
        for (const id of ids) await provider.removeScp(id);
      } else {
        const byId = new Map(all.map((d) => [d.id, d]));
        let compiled: CompiledAzureBundle | undefined;
        if (input) {
          for (const waiver of await waiversOfBundle(db, bundle.tenantId, bundle.id)) {
            for (const id of exemptionIds(input, toActiveWaiver(waiver, byId.get(waiver.deploymentId))))
              await provider.removeExemption(id);
          }
          try {
            compiled = compileAzureBundle({ ...input, waivers: [] });
          } catch (error) {
            if (!(error instanceof CompileError)) throw error;
          }
        }
        const assignments = new Set([
          ...all.map((d) => d.nativeId).filter((id): id is string => Boolean(id)),
          ...(compiled?.assignments.map((a) => a.id) ?? []),
        ]);
        for (const id of assignments) await provider.removeAssignment(id);
        if (compiled) await provider.removeDefinition(compiled.definition.id);
      }
    } catch (error) {
      rethrowTransient(error, options);
      await fail(remaining, cloudFailure(error, "delete"));
      return finishBundle(bundle);
    }
    await updateDeployments(
      db,
      remaining.map((d) => d.id),
      {
        status: "DELETED",
        errorCode: null,
        errorMessage: null,
      },
    );
    await finishBundle(bundle);
  }

  return {
    syncBundle,
    removeBundle(tenantId: string, bundleId: string, options: RunOptions) {
      return exclusive(bundleId, async () => {
        const bundle = await loadBundle(tenantId, bundleId);
        if (bundle?.deletedAt) await removeBundleNow(bundle, options);
      });
    },
    /**
     * Compares the cloud with the database and repairs it: a policy removed out of band is reported
     * as missing and restored, a changed one rewritten, a deleted bundle's leftovers removed.
     */
    async reconcile(filter: { tenantId?: string; bundleId?: string }, options: RunOptions): Promise<void> {
      for (const bundle of await listBundlesBeingDeleted(db, filter.tenantId)) {
        if (filter.bundleId && bundle.id !== filter.bundleId) continue;
        await exclusive(bundle.id, () => removeBundleNow(bundle, options));
      }
      for (const bundle of await listLiveBundles(db, filter)) {
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
