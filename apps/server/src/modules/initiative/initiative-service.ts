import type { ServiceImpl } from "@connectrpc/connect";
import type { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { ConnectorRuntime } from "../connector/connector-api";
import { getInitiative } from "./rpc/get-initiative";
import { getInitiativeInstall } from "./rpc/get-initiative-install";
import { installInitiative } from "./rpc/install-initiative";
import { listInitiativePolicies } from "./rpc/list-initiative-policies";
import { listInitiatives } from "./rpc/list-initiatives";
import type { InitiativeServiceDeps } from "./tenant-initiatives";

export function createInitiativeService(options: {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  jobs: JobQueue;
  publicUrl: string;
}): ServiceImpl<typeof InitiativeService> {
  const deps: InitiativeServiceDeps = {
    ...options,
    frameworks: new Map(options.catalogue.frameworks.map((framework) => [framework.id, framework])),
  };
  return {
    listInitiatives: (req, ctx) => listInitiatives(deps, req, ctx),
    getInitiative: (req, ctx) => getInitiative(deps, req, ctx),
    listInitiativePolicies: (req, ctx) => listInitiativePolicies(deps, req, ctx),
    installInitiative: (req, ctx) => installInitiative(deps, req, ctx),
    getInitiativeInstall: (req, ctx) => getInitiativeInstall(deps, req, ctx),
  };
}
