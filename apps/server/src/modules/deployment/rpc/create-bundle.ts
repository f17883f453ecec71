import { randomBytes } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { renderFeedbackMessage } from "@palisade/policy-engine/compilers/compile-input";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { enqueueBundleSync } from "../../../jobs/bundle-sync-job";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { auditCall } from "../../audit/audit-log";
import { findHierarchyNodes } from "../../connector/connector-repository";
import { parseName, parseNamespace, parseParameters, resolveScopes } from "../bundle-input";
import { checkCompiles, definitionFor } from "../compile-check";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { bundleMessage, modeName } from "../deployment-message";
import { insertBundle } from "../deployment-repository";
import { tenantReads } from "../tenant-reads";

/** Attempts at a fresh policy key before giving up (keys are random; a clash is rare). */
const KEY_ATTEMPTS = 10;

export function createBundle(deps: DeploymentServiceDeps): DeploymentRpc["createBundle"] {
  const { db, jobs } = deps;
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const name = parseName(req.name);
    if (!req.policySlug.trim()) throw invalidField("policy_slug", "required.");
    const mode = modeName(req.mode);
    const namespace = parseNamespace(req.namespace);
    // The catalogue and the settings are read once for the whole call.
    const tenant = tenantReads(deps, caller.tenantId);
    const definition = await definitionFor(tenant, req.policySlug);
    const parameters = parseParameters(definition, req.parameters);
    const nodes = await findHierarchyNodes(db, caller.tenantId, [
      ...req.scopes.map((s) => s.externalId.trim()),
      ...req.excludedScopes.map((s) => s.externalId.trim()),
    ]);
    const { scopes, excluded } = resolveScopes(definition, req.scopes, req.excludedScopes, nodes);
    await checkCompiles(deps, tenant, definition, { parameters, mode, name, scopes, excluded });
    const approval = req.waiverSettings?.approvalMode ?? WaiverApprovalMode.UNSPECIFIED;
    const approvalMode =
      approval === WaiverApprovalMode.UNSPECIFIED
        ? (await tenant.settings()).defaultWaiverApprovalMode
        : WaiverApprovalMode[approval];
    const linkBase = (await tenant.settings()).waiverLinkBaseUrl || deps.publicUrl;

    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
      const key = generatePolicyKey((n) => randomBytes(n));
      const stored = await insertBundle(
        db,
        {
          tenantId: caller.tenantId,
          key,
          name,
          policySlug: definition.slug,
          provider: definition.enforcer === "aws_scp" ? "aws" : "azure",
          mode,
          status: "PENDING",
          scopes,
          excludedScopes: excluded,
          parameters,
          feedbackMessage: renderFeedbackMessage({ definition, key, name, waiverLinkBaseUrl: linkBase }),
          affectedResourceTypes: definition.affected_resource_types,
          mainResourceType: definition.main_resource_type,
          isVisible: req.isVisible,
          namespace,
          waiverApprovalMode: approvalMode,
          createdBy: caller.name,
        },
        scopes,
      );
      if (!stored) continue;
      await auditCall(db, ctx, {
        targetType: "bundle",
        targetId: stored.bundle.id,
        details: { key, policySlug: definition.slug, mode, scopes: scopes.map((s) => s.externalId) },
      });
      await enqueueBundleSync(jobs, {
        tenantId: caller.tenantId,
        bundleId: stored.bundle.id,
        reason: "created",
      });
      return { bundle: bundleMessage(stored.bundle) };
    }
    throw new ConnectError("Could not allocate a unique policy key; try again.", Code.Unavailable);
  };
}
