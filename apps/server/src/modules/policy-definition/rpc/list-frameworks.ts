import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListFrameworksRequest,
  ListFrameworksResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { enforcerOfProvider } from "../definition-message";
import { type PolicyDefinitionServiceDeps, tenantView, visibleDefinitions } from "../definitions";

/** Every framework of the catalogue; for one provider, those its definitions name. */
export async function listFrameworks(
  deps: PolicyDefinitionServiceDeps,
  req: ListFrameworksRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListFrameworksResponseSchema>> {
  const caller = requireCaller(ctx);
  const enforcer = req.cloudProvider === undefined ? undefined : enforcerOfProvider(req.cloudProvider);
  if (!enforcer) return { frameworks: deps.catalogue.frameworks.map((framework) => framework.id).sort() };
  const named = visibleDefinitions(await tenantView(deps, caller.tenantId))
    .filter((entry) => entry.definition.enforcer === enforcer)
    .flatMap((entry) => entry.definition.frameworks.map((framework) => framework.name));
  return { frameworks: [...new Set(named)].sort() };
}
