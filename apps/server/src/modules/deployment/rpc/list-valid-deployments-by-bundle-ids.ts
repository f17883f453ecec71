import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListValidDeploymentsByBundleIdsRequest,
  ListValidDeploymentsByBundleIdsResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { validDeploymentIds } from "../deployment-repository";

export async function listValidDeploymentsByBundleIds(
  { db }: DeploymentServiceDeps,
  req: ListValidDeploymentsByBundleIdsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListValidDeploymentsByBundleIdsResponseSchema>> {
  const caller = requireCaller(ctx);
  if (req.bundleId.length > 100) throw invalidField("bundle_id", "at most 100 ids.");
  return { deploymentIds: await validDeploymentIds(db, caller.tenantId, req.bundleId) };
}
