import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListInitiativePoliciesRequest,
  ListInitiativePoliciesResponseSchema,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { definitionMessage, SUMMARY_EXCLUDED } from "../../policy-definition/policy-definition-api";
import {
  findClause,
  findInitiative,
  type InitiativeServiceDeps,
  loadTenantInitiatives,
} from "../tenant-initiatives";

export async function listInitiativePolicies(
  deps: InitiativeServiceDeps,
  req: ListInitiativePoliciesRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListInitiativePoliciesResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const tenant = await loadTenantInitiatives(deps, caller.tenantId);
  const initiative = findInitiative(tenant, req.initiative, "initiative");
  const clauseIds = (slug: string) =>
    initiative.clauses.filter((clause) => clause.definitionSlugs.includes(slug)).map((clause) => clause.id);
  const slugs =
    req.clause === undefined
      ? initiative.definitionSlugs
      : findClause(initiative, req.clause).definitionSlugs;
  const entries = slugs
    .flatMap((slug) => {
      const entry = tenant.view.bySlug.get(slug);
      return entry ? [entry] : [];
    })
    .sort(
      (a, b) =>
        a.definition.display_name.localeCompare(b.definition.display_name) ||
        a.definition.slug.localeCompare(b.definition.slug),
    );
  return {
    items: entries.slice(window.offset, window.offset + window.limit).map((entry) => ({
      definition: definitionMessage(
        entry.definition,
        { state: entry.state, createdAt: entry.createdAt },
        SUMMARY_EXCLUDED,
      ),
      clauseIds: clauseIds(entry.definition.slug),
    })),
    pagination: pageResponse(entries.length, window),
  };
}
