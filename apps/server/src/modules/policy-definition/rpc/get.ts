import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetRequest,
  GetResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { excludedFields, tenantDefinitionMessage } from "../definition-message";
import { requireSlug } from "../definition-query";
import { definitionNotFound, type PolicyDefinitionServiceDeps, tenantView } from "../definitions";

export async function get(
  deps: PolicyDefinitionServiceDeps,
  req: GetRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetResponseSchema>> {
  const caller = requireCaller(ctx);
  const slug = requireSlug(req.slug);
  const excluded = excludedFields(req.excludeMask?.paths);
  // The catalogue format has no deprecated parameter type, so show_deprecated_parameters
  // never has anything to reveal.
  const entry = (await tenantView(deps, caller.tenantId)).bySlug.get(slug);
  if (!entry) throw definitionNotFound(slug);
  return { policyDefinition: tenantDefinitionMessage(entry, excluded) };
}
