import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { WaiverCreateSource } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { auditCall } from "../../audit/audit-log";
import { findWaiver as findWaiverView } from "../../waiver/waiver-repository";
import { waiverMessage } from "../../waiver/waiver-service";
import { bundleByKey, liveBundle } from "../bundle-lookup";
import { enqueueBundleSync } from "../bundle-sync";
import type { DeploymentRpc, DeploymentServiceDeps } from "../deployment-deps";
import { findDeploymentsOfBundle, insertWaiver } from "../deployment-repository";

const MAX_COMMENT = 220;
/** Longest a directly recorded waiver may last, as for requested ones. */
const MAX_WAIVER_SECONDS = 72 * 3600;

/** Records a waiver directly, approved at once (integrations, the security team). */
export function createWaiver({ db, jobs }: DeploymentServiceDeps): DeploymentRpc["createWaiver"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const bundle = liveBundle(await bundleByKey(db, caller, req.key));
    if (!req.expiresAt) throw invalidField("expires_at", "required.");
    const expiresAt = timestampDate(req.expiresAt);
    const seconds = Math.round((expiresAt.getTime() - Date.now()) / 1000);
    if (seconds <= 0) throw invalidField("expires_at", "must be in the future.");
    if (seconds > MAX_WAIVER_SECONDS) throw invalidField("expires_at", "at most 72 hours from now.");
    const request = req.waiverRequest;
    const comment = request?.requester?.comment.trim() ?? "";
    if (comment.length > MAX_COMMENT)
      throw invalidField("waiver_request.requester.comment", `at most ${MAX_COMMENT} characters.`);
    const target = request?.target;
    const scope = target?.case === "targetScope" ? target.value.externalId.trim() : undefined;
    const resource = target?.case === "resource" ? target.value.externalId.trim() : undefined;
    const principalArn = target?.case === "principalArn" ? target.value.trim() : undefined;
    if (
      [scope, resource, principalArn].some(
        (value) => value !== undefined && (value === "" || value.length > 1024),
      )
    ) {
      throw invalidField("waiver_request.target", "a scope, resource or principal of 1 to 1024 characters.");
    }
    const deployments = (await findDeploymentsOfBundle(db, bundle.id, caller.tenantId)).filter(
      (d) => d.status !== "DELETED" && d.status !== "DELETING",
    );
    const deployment =
      deployments.find(
        (d) => scope !== undefined && d.scopeExternalId.toLowerCase() === scope.toLowerCase(),
      ) ?? deployments[0];
    if (!deployment)
      throw new ConnectError("The bundle has no live deployment to waive.", Code.FailedPrecondition);
    const now = new Date();
    const row = await insertWaiver(db, {
      tenantId: caller.tenantId,
      deploymentId: deployment.id,
      policyKey: bundle.key,
      createSource:
        request && request.createSource !== WaiverCreateSource.UNSPECIFIED
          ? WaiverCreateSource[request.createSource]
          : "SYSTEM",
      requesterName: request?.requester?.name.trim() || caller.name,
      requesterIdentifier: request?.requester?.identifier.trim() || caller.email || caller.id,
      requesterUserId: caller.kind === "user" ? caller.id : null,
      comment,
      durationSeconds: seconds,
      expiresAt,
      scope: scope ?? null,
      resource: resource ?? null,
      principalArn: principalArn ?? null,
      status: "ACTIVE",
      approvalType: "AUTO",
      reviewerName: caller.name,
      reviewerIdentifier: caller.email ?? caller.id,
      reviewedAt: now,
      deploymentStatus: "PENDING",
    });
    await auditCall(db, ctx, {
      targetType: "waiver",
      targetId: row.id,
      details: { key: bundle.key, expiresAt: expiresAt.toISOString() },
    });
    await enqueueBundleSync(jobs, {
      tenantId: caller.tenantId,
      bundleId: bundle.id,
      reason: "waiver created",
    });
    const view = await findWaiverView(db, caller.tenantId, row.id);
    if (!view) throw new ConnectError("The waiver was not stored.", Code.Internal);
    return { waiver: waiverMessage(view) };
  };
}
