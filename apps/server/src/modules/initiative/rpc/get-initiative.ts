import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetInitiativeRequest,
  GetInitiativeResponseSchema,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { requireCaller } from "../../../rpc/call-context";
import { liveScopesOfPolicies } from "../../deployment/deployment-api";
import { deployedScopes, initiativeMessage } from "../initiative-message";
import { findInitiative, type InitiativeServiceDeps, loadTenantInitiatives } from "../tenant-initiatives";

export async function getInitiative(
  deps: InitiativeServiceDeps,
  req: GetInitiativeRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetInitiativeResponseSchema>> {
  const caller = requireCaller(ctx);
  const lookup = req.lookup.case === undefined ? "" : req.lookup.value;
  const tenant = await loadTenantInitiatives(deps, caller.tenantId);
  const initiative = findInitiative(tenant, lookup, req.lookup.case ?? "slug");
  const live = await liveScopesOfPolicies(deps.db, caller.tenantId, initiative.definitionSlugs);
  return {
    initiative: {
      ...initiativeMessage(initiative, tenant.view, deps.frameworks.get(initiative.slug), true),
      deployedScopes: deployedScopes(live),
    },
  };
}
