import type { MessageInitShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { type Scope, ScopeSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type {
  UpdateBundleRequest,
  UpdateBundleResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { renderFeedbackMessage } from "@palisade/policy-engine/compilers/compile-input";
import { enqueueBundleSync } from "../../../jobs/bundle-sync-job";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { awsManagementAccountOf, findHierarchyNodes } from "../../connector/connector-api";
import { bundleAuditView } from "../bundle-audit";
import {
  parseManagedBy,
  parseName,
  parseNamespace,
  parseParameters,
  refuseManagementAccount,
  resolveScopes,
} from "../bundle-input";
import { bundleById, bundleNotFound, liveBundle } from "../bundle-lookup";
import {
  type BundleRow,
  findBundle,
  type StoredScope,
  updateBundle as storeBundle,
} from "../bundle-repository";
import { checkCompiles, definitionFor } from "../compile-check";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { bundleMessage, modeName } from "../deployment-message";
import { replaceBundleTargets, updateDeploymentsOfBundle } from "../deployment-repository";
import { tenantReads } from "../tenant-reads";

function asScope(scope: StoredScope): Scope {
  return create(ScopeSchema, { externalId: scope.externalId, connectorId: scope.connectorId });
}

/** Changes what was asked; what the cloud sees (name, mode, parameters, scopes) is deployed again. */
export async function updateBundle(
  deps: DeploymentServiceDeps,
  req: UpdateBundleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateBundleResponseSchema>> {
  const { db, jobs } = deps;
  const caller = requireCaller(ctx);
  const bundle = liveBundle(await bundleById(db, caller, req.id));
  const tenant = tenantReads(deps, caller.tenantId);
  const definition = await definitionFor(tenant, bundle.policySlug);
  const changes: Partial<BundleRow> = {};
  let redeploy = false;
  if (req.name !== undefined) {
    changes.name = parseName(req.name);
    redeploy ||= changes.name !== bundle.name;
  }
  if (req.mode !== undefined) {
    changes.mode = modeName(req.mode);
    redeploy ||= changes.mode !== bundle.mode;
  }
  if (req.namespace !== undefined) changes.namespace = parseNamespace(req.namespace);
  if (req.isVisible !== undefined) changes.isVisible = req.isVisible;
  if (req.managedBy !== undefined) changes.managedBy = parseManagedBy(req.managedBy);
  const approval = req.waiverSettings?.approvalMode ?? WaiverApprovalMode.UNSPECIFIED;
  if (approval !== WaiverApprovalMode.UNSPECIFIED) changes.waiverApprovalMode = WaiverApprovalMode[approval];
  if (req.parameters !== undefined) {
    changes.parameters = parseParameters(definition, req.parameters);
    redeploy = true;
  }
  let targets: StoredScope[] | undefined;
  if (req.scopes.length > 0 || req.excludedScopes !== undefined) {
    const requested = req.scopes.length > 0 ? req.scopes : (bundle.scopes as StoredScope[]).map(asScope);
    const excludedRequested =
      req.excludedScopes !== undefined
        ? req.excludedScopes.items
        : (bundle.excludedScopes as StoredScope[]).map(asScope);
    const nodes = await findHierarchyNodes(db, caller.tenantId, [
      ...requested.map((s) => s.externalId.trim()),
      ...excludedRequested.map((s) => s.externalId.trim()),
    ]);
    const resolved = resolveScopes(definition, requested, excludedRequested, nodes);
    refuseManagementAccount(
      resolved.scopes,
      await awsManagementAccountOf(deps, caller.tenantId, resolved.connectorId),
    );
    const connectors = new Set([
      ...(bundle.scopes as StoredScope[]).map((s) => s.connectorId),
      resolved.connectorId,
    ]);
    if (connectors.size > 1)
      throw invalidField("scopes", "a bundle stays with the connector it was created on.");
    targets = resolved.scopes;
    changes.scopes = resolved.scopes;
    changes.excludedScopes = resolved.excluded;
    redeploy = true;
  }
  if (changes.name !== undefined) {
    const settings = await tenant.settings();
    changes.feedbackMessage = renderFeedbackMessage({
      definition,
      key: bundle.key,
      name: changes.name,
      waiverLinkBaseUrl: settings.waiverLinkBaseUrl || deps.publicUrl,
    });
  }
  if (redeploy) {
    await checkCompiles(deps, tenant, definition, {
      id: bundle.id,
      key: bundle.key,
      parameters: changes.parameters ?? bundle.parameters,
      mode: changes.mode ?? bundle.mode,
      name: changes.name ?? bundle.name,
      scopes: (changes.scopes ?? bundle.scopes) as StoredScope[],
      excluded: (changes.excludedScopes ?? bundle.excludedScopes) as StoredScope[],
    });
  }
  const updated = await db.transaction(async (tx) => {
    const saved = await storeBundle(tx, caller.tenantId, bundle.id, {
      ...changes,
      editedBy: caller.name,
      editedAt: new Date(),
    });
    if (!saved) throw bundleNotFound();
    if (redeploy) await replaceBundleTargets(tx, saved, targets);
    // Nothing the cloud sees changed: the deployments keep their status.
    else await updateDeploymentsOfBundle(tx, caller.tenantId, bundle.id, { isVisible: saved.isVisible });
    await recordAudit(tx, ctx, {
      target: { type: "bundle", id: bundle.id, name: saved.name },
      before: bundleAuditView(bundle),
      after: bundleAuditView(saved),
    });
    return saved;
  });
  if (redeploy) {
    await enqueueBundleSync(jobs, { tenantId: caller.tenantId, bundleId: bundle.id, reason: "updated" });
  }
  const fresh = await findBundle(db, caller.tenantId, bundle.id);
  return { bundle: bundleMessage(fresh ?? updated) };
}
