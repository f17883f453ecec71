import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListAffectedResourcesRequest,
  ListAffectedResourcesResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { enforcerOfProvider } from "../definition-message";
import { type PolicyDefinitionServiceDeps, tenantView, visibleDefinitions } from "../definitions";

export async function listAffectedResources(
  deps: PolicyDefinitionServiceDeps,
  req: ListAffectedResourcesRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListAffectedResourcesResponseSchema>> {
  const caller = requireCaller(ctx);
  const enforcer = req.cloudProvider === undefined ? undefined : enforcerOfProvider(req.cloudProvider);
  const types = visibleDefinitions(await tenantView(deps, caller.tenantId))
    .filter((entry) => !enforcer || entry.definition.enforcer === enforcer)
    .flatMap((entry) => entry.definition.affected_resource_types);
  return { resourceTypes: [...new Set(types)].sort() };
}
