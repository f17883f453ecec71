import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  DeleteWaiverRequest,
  DeleteWaiverResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-log";
import { cancelWaiver, waiverNotFound } from "../../waiver/waiver-lifecycle";
import { findWaiver } from "../../waiver/waiver-repository";
import { OPEN_STATUSES, type WaiverStatusName } from "../../waiver/waiver-rules";
import type { DeploymentServiceDeps } from "../deployment-deps";

/** Ends a waiver as WaiverService.Cancel does; the bundle is synced without it. */
export async function deleteWaiver(
  deps: DeploymentServiceDeps,
  req: DeleteWaiverRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DeleteWaiverResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  if (!req.id) throw invalidField("id", "required.");
  const waiver = await findWaiver(db, caller.tenantId, req.id);
  if (!waiver) throw waiverNotFound();
  if (!OPEN_STATUSES.includes(waiver.status as WaiverStatusName)) {
    throw new ConnectError(
      `The waiver is already ${waiver.status.toLowerCase()}; only pending or active waivers can be deleted.`,
      Code.FailedPrecondition,
    );
  }
  await cancelWaiver(deps, waiver, "waiver deleted", (tx, updated) =>
    recordAudit(tx, ctx, {
      target: { type: "waiver", id: updated.id, name: updated.policyKey },
      before: { status: waiver.status },
      after: { status: updated.status },
    }),
  );
  return {};
}
