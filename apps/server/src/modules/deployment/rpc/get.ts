import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetRequest,
  GetResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { deploymentFor, deploymentNotFound } from "../bundle-lookup";
import { listDeploymentsWithCounts } from "../bundle-query-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { extendedDeploymentMessage } from "../deployment-message";

export async function get(
  { db }: DeploymentServiceDeps,
  req: GetRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetResponseSchema>> {
  const caller = requireCaller(ctx);
  const row = await deploymentFor(db, caller, req.lookup);
  const { items } = await listDeploymentsWithCounts(db, caller.tenantId, { ids: [row.id] });
  const item = items[0];
  if (!item) throw deploymentNotFound();
  return { deployment: extendedDeploymentMessage(item.deployment, item.counts) };
}
