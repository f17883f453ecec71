import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListInitiativesRequest,
  ListInitiativesResponseSchema,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { enforcerOfProvider, searchText } from "../../policy-definition/policy-definition-api";
import { initiativeMessage } from "../initiative-message";
import { type InitiativeServiceDeps, loadTenantInitiatives } from "../tenant-initiatives";

export async function listInitiatives(
  deps: InitiativeServiceDeps,
  req: ListInitiativesRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListInitiativesResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const search = searchText(req.search);
  const enforcer = req.provider === undefined ? undefined : enforcerOfProvider(req.provider);
  const { view, initiatives } = await loadTenantInitiatives(deps, caller.tenantId);
  const matching = initiatives.filter((initiative) => {
    if (search) {
      const framework = deps.frameworks.get(initiative.slug);
      const texts = [initiative.name, initiative.slug, framework?.name ?? ""];
      if (!texts.some((text) => text.toLowerCase().includes(search))) return false;
    }
    return (
      !enforcer ||
      initiative.definitionSlugs.some((slug) => view.bySlug.get(slug)?.definition.enforcer === enforcer)
    );
  });
  return {
    items: matching
      .slice(window.offset, window.offset + window.limit)
      .map((initiative) => initiativeMessage(initiative, view, deps.frameworks.get(initiative.slug), false)),
    pagination: pageResponse(matching.length, window),
  };
}
