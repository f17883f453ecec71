import type { ServiceImpl } from "@connectrpc/connect";
import type { PolicyDefinitionService } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import type { PolicyDefinitionServiceDeps } from "./definitions";
import { create } from "./rpc/create";
import { get } from "./rpc/get";
import { list } from "./rpc/list";
import { listAffectedResources } from "./rpc/list-affected-resources";
import { listFrameworks } from "./rpc/list-frameworks";
import { listMainResources } from "./rpc/list-main-resources";
import { update } from "./rpc/update";
import { upgrade } from "./rpc/upgrade";

export function createPolicyDefinitionService(
  deps: PolicyDefinitionServiceDeps,
): ServiceImpl<typeof PolicyDefinitionService> {
  return {
    get: (req, ctx) => get(deps, req, ctx),
    list: (req, ctx) => list(deps, req, ctx),
    listAffectedResources: (req, ctx) => listAffectedResources(deps, req, ctx),
    listMainResources: (req, ctx) => listMainResources(deps, req, ctx),
    listFrameworks: (req, ctx) => listFrameworks(deps, req, ctx),
    create: (req, ctx) => create(deps, req, ctx),
    upgrade: (req, ctx) => upgrade(deps, req, ctx),
    update: (req, ctx) => update(deps, req, ctx),
  };
}
