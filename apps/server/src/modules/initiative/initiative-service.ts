import type { ServiceImpl } from "@connectrpc/connect";
import type { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { getInitiative } from "./rpc/get-initiative";
import { listInitiativePolicies } from "./rpc/list-initiative-policies";
import { listInitiatives } from "./rpc/list-initiatives";
import type { InitiativeServiceDeps } from "./tenant-initiatives";

/** InstallInitiative is not offered: the server answers it as not available yet. */
export function createInitiativeService(deps: {
  db: Database;
  catalogue: Catalogue;
}): Omit<ServiceImpl<typeof InitiativeService>, "installInitiative"> {
  const initiatives: InitiativeServiceDeps = {
    ...deps,
    frameworks: new Map(deps.catalogue.frameworks.map((framework) => [framework.id, framework])),
  };
  return {
    listInitiatives: (req, ctx) => listInitiatives(initiatives, req, ctx),
    getInitiative: (req, ctx) => getInitiative(initiatives, req, ctx),
    listInitiativePolicies: (req, ctx) => listInitiativePolicies(initiatives, req, ctx),
  };
}
