import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  InstallInitiativeRequest,
  InstallInitiativeResponseSchema,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { insertJobRecord, updateJobRecord } from "../../../jobs/job-record-repository";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import {
  bundleMessage,
  modeName,
  parseNamespace,
  prepareBundle,
  storeBundle,
  tenantReads,
} from "../../deployment/deployment-api";
import { type InstallRecord, JOB_KIND, planInstall } from "../initiative-install";
import { findInitiative, type InitiativeServiceDeps, loadTenantInitiatives } from "../tenant-initiatives";

/**
 * One bundle per policy of the initiative (of the chosen clauses), all in the initiative's
 * namespace. Every bundle is checked before any is stored; their deployments then run as jobs,
 * and the install's record in the jobs table tells how far they are (GetInitiativeInstall).
 */
export async function installInitiative(
  deps: InitiativeServiceDeps,
  req: InstallInitiativeRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof InstallInitiativeResponseSchema>> {
  const caller = requireCaller(ctx);
  const mode = modeName(req.mode) as "PREVENT" | "ALERT";
  const tenant = await loadTenantInitiatives(deps, caller.tenantId);
  const initiative = findInitiative(tenant, req.slug, "slug");
  const namespace = parseNamespace(req.namespace ?? initiative.slug);
  const parameters = Object.fromEntries(
    Object.entries(req.parameters).map(([slug, value]) => [slug, value as Record<string, unknown>]),
  );
  const plan = await planInstall(deps.db, caller.tenantId, tenant.view, initiative, {
    clauseIds: req.clauseIds,
    policySlugs: req.policySlugs,
    scopes: req.scopes,
    parameters,
  });

  const reads = tenantReads(deps, caller.tenantId);
  const prepared = [];
  for (const policy of plan.policies) {
    prepared.push(
      await prepareBundle(deps, reads, {
        name: policy.name,
        definition: policy.definition,
        scopes: req.scopes,
        excludedScopes: [],
        mode,
        parameters: policy.parameters,
        isVisible: true,
        namespace,
        waiverApprovalMode: undefined,
        createdBy: caller.name,
      }),
    );
  }
  const record: InstallRecord = { initiativeSlug: initiative.slug, bundleIds: [], skipped: plan.skipped };
  const jobId = await insertJobRecord(deps.db, {
    tenantId: caller.tenantId,
    kind: JOB_KIND,
    createdBy: caller.name,
    status: "RUNNING",
    total: prepared.length,
    result: record,
  });
  const bundles: Awaited<ReturnType<typeof storeBundle>>[] = [];
  for (const bundle of prepared) {
    const stored = await storeBundle(deps, reads, bundle);
    bundles.push(stored);
    record.bundleIds.push(stored.id);
    await updateJobRecord(deps.db, caller.tenantId, jobId, { result: record });
  }
  if (bundles.length === 0)
    await updateJobRecord(deps.db, caller.tenantId, jobId, {
      status: "SUCCEEDED",
      progress: 100,
      finishedAt: new Date(),
    });
  await deps.db.transaction((tx) =>
    recordAudit(tx, ctx, {
      target: { type: "initiative", id: initiative.slug, name: initiative.name },
      after: {
        mode,
        namespace,
        scopes: req.scopes.map((s) => s.externalId),
        keys: bundles.map((b) => b.key),
        skipped: plan.skipped.map((s) => s.policySlug),
      },
    }),
  );
  return {
    bundles: bundles.map((b) => bundleMessage(b)),
    skippedPolicySlugs: plan.skipped.map((s) => s.policySlug),
    skipped: plan.skipped,
    jobId,
  };
}
