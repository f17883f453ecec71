import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  DeleteWaiverRequest,
  DeleteWaiverResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { deleteOpenWaiver } from "../../waiver/waiver-api";
import type { DeploymentServiceDeps } from "../deployment-deps";

/** Ends a waiver as WaiverService.Cancel does; the bundle is synced without it. */
export async function deleteWaiver(
  deps: DeploymentServiceDeps,
  req: DeleteWaiverRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DeleteWaiverResponseSchema>> {
  await deleteOpenWaiver(deps, ctx, req.id);
  return {};
}
