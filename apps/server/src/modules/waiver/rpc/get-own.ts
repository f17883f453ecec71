import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetOwnRequest,
  GetOwnResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { tenantName } from "../waiver-context-repository";
import type { WaiverServiceDeps } from "../waiver-deps";
import { waiverNotFound } from "../waiver-lifecycle";
import { waiverMessage } from "../waiver-message";
import { findOwnWaiverAnyTenant } from "../waiver-repository";

/**
 * One waiver the caller requested, for the request page to follow it until it is decided. A
 * requester may hold only WAIVERS_REQUEST, so the lists are closed to them; this reads nothing else.
 */
export async function getOwn(
  deps: WaiverServiceDeps,
  req: GetOwnRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetOwnResponseSchema>> {
  const { db } = deps;
  const caller = requireCaller(ctx);
  const waiver = req.id
    ? await findOwnWaiverAnyTenant(db, req.id, {
        userId: caller.kind === "user" ? caller.id : null,
        identifier: caller.email ?? caller.id,
      })
    : undefined;
  if (!waiver) throw waiverNotFound();
  return { waiver: waiverMessage(waiver), tenantName: await tenantName(db, waiver.tenantId) };
}
