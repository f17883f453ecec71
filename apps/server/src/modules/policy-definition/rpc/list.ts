import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListRequest,
  ListResponseSchema,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { excludedFields, tenantDefinitionMessage } from "../definition-message";
import { matchesFilter, readFilter, sortDefinitions } from "../definition-query";
import { type PolicyDefinitionServiceDeps, tenantView, visibleDefinitions } from "../definitions";

export async function list(
  deps: PolicyDefinitionServiceDeps,
  req: ListRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const filter = readFilter(req.filter);
  const excluded = excludedFields(req.excludeMask?.paths);
  const matching = visibleDefinitions(await tenantView(deps, caller.tenantId)).filter((entry) =>
    matchesFilter(entry, filter),
  );
  const sorted = sortDefinitions(matching, req.orderBy, req.pagination?.order ?? 0);
  const page = sorted.slice(window.offset, window.offset + window.limit);
  return {
    items: page.map((entry) => tenantDefinitionMessage(entry, excluded)),
    pagination: pageResponse(sorted.length, window),
  };
}
