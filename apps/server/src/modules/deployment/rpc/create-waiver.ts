import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  CreateWaiverRequest,
  CreateWaiverResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordApprovedWaiver, waiverMessage } from "../../waiver/waiver-api";
import { parseManagedBy } from "../bundle-input";
import { bundleByKey, liveBundle } from "../bundle-lookup";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { createWaiverFitCheck } from "../waiver-fit";

/** Records a waiver directly, approved at once (integrations, the security team). */
export async function createWaiver(
  deps: DeploymentServiceDeps,
  req: CreateWaiverRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateWaiverResponseSchema>> {
  const caller = requireCaller(ctx);
  const bundle = liveBundle(await bundleByKey(deps.db, caller, req.key));
  const waiver = await recordApprovedWaiver({ ...deps, fits: createWaiverFitCheck(deps) }, ctx, {
    bundle,
    request: req,
    managedBy: () => parseManagedBy(req.managedBy),
  });
  return { waiver: waiverMessage(waiver) };
}
