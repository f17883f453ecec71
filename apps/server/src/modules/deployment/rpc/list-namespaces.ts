import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListNamespacesRequest,
  ListNamespacesResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { listNamespaces as namespacesOf } from "../bundle-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";

export async function listNamespaces(
  { db }: DeploymentServiceDeps,
  _req: ListNamespacesRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListNamespacesResponseSchema>> {
  const caller = requireCaller(ctx);
  return { namespaces: await namespacesOf(db, caller.tenantId) };
}
