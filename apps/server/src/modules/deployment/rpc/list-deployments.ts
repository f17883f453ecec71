import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListDeploymentsRequest,
  ListDeploymentsResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { filterStrings } from "../bundle-filter";
import { listDeploymentsWithCounts } from "../bundle-query-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { extendedDeploymentMessage, modeName } from "../deployment-message";

export async function listDeployments(
  { db }: DeploymentServiceDeps,
  req: ListDeploymentsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListDeploymentsResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const { items, total } = await listDeploymentsWithCounts(
    db,
    caller.tenantId,
    {
      scopes: filterStrings(req.scopes),
      modes: req.modes.map((mode) => modeName(mode, "modes")),
      bundleId: req.bundleId || undefined,
    },
    window,
  );
  return {
    items: items.map((item) => extendedDeploymentMessage(item.deployment, item.counts)),
    pagination: pageResponse(total, window),
  };
}
