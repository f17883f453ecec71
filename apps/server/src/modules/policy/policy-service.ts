import type { ServiceImpl } from "@connectrpc/connect";
import type { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { createBundleCards, type PolicyServiceDeps } from "./policies";
import { getBundleByKey } from "./rpc/get-bundle-by-key";
import { getDefinitionBySlug } from "./rpc/get-definition-by-slug";
import { getPolicies } from "./rpc/get-policies";
import { listWaiverScopes } from "./rpc/list-waiver-scopes";
import { resolvePolicyKey } from "./rpc/resolve-policy-key";

/** The tenant's policies (catalogue joined with its bundles) and the public waiver page's lookups. */
export function createPolicyService(options: {
  db: Database;
  catalogue: Catalogue;
  /** The key lookup's cache, invalidated across replicas; a private one when absent. */
  bundleCard?: PolicyServiceDeps["bundleCard"];
}): ServiceImpl<typeof PolicyService> {
  const deps: PolicyServiceDeps = {
    ...options,
    bundleCard: options.bundleCard ?? createBundleCards(options.db, options.catalogue).card,
  };
  return {
    getPolicies: (req, ctx) => getPolicies(deps, req, ctx),
    getBundleByKey: (req, ctx) => getBundleByKey(deps, req, ctx),
    getDefinitionBySlug: (req, ctx) => getDefinitionBySlug(deps, req, ctx),
    resolvePolicyKey: (req, ctx) => resolvePolicyKey(deps, req, ctx),
    listWaiverScopes: (req, ctx) => listWaiverScopes(deps, req, ctx),
  };
}
