import { Code, ConnectError } from "@connectrpc/connect";
import { deriveInitiatives, type Initiative } from "@palisade/policy-engine/catalogue/initiatives";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import { invalidField } from "../../rpc/errors";
import type { ConnectorRuntime } from "../connector/connector-api";
import { loadTenantCatalogue, type TenantCatalogue } from "../policy-definition/policy-definition-api";

export type Framework = Catalogue["frameworks"][number];

export interface InitiativeServiceDeps {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  jobs: JobQueue;
  /** Public address of Palisade, for the waiver links of the bundles an install creates. */
  publicUrl: string;
  /** The catalogue's frameworks by id; an initiative's slug is its framework's id. */
  frameworks: ReadonlyMap<string, Framework>;
}

export interface TenantInitiatives {
  view: TenantCatalogue;
  /** By name. */
  initiatives: Initiative[];
}

/**
 * Initiatives are derived per request from the tenant's view of the catalogue, so the tenant's own
 * definitions that name a framework count towards its coverage, and installed counts follow its bundles.
 */
export async function loadTenantInitiatives(
  deps: InitiativeServiceDeps,
  tenantId: string,
): Promise<TenantInitiatives> {
  const view = await loadTenantCatalogue(deps.db, deps.catalogue, tenantId);
  const initiatives = deriveInitiatives({
    ...deps.catalogue,
    definitions: view.definitions.map((entry) => entry.definition),
  }).sort((a, b) => a.name.localeCompare(b.name));
  return { view, initiatives };
}

/** The initiative named by `lookup` (its id or slug, which are the same), read from request field `field`. */
export function findInitiative(
  { initiatives }: TenantInitiatives,
  lookup: string,
  field: string,
): Initiative {
  const key = lookup.trim();
  if (!key) throw invalidField(field, "give the initiative's id or slug.");
  const initiative = initiatives.find((candidate) => candidate.slug === key);
  if (!initiative) throw new ConnectError(`No initiative "${key}".`, Code.NotFound);
  return initiative;
}

export function findClause(initiative: Initiative, id: string): Initiative["clauses"][number] {
  const clause = initiative.clauses.find((candidate) => candidate.id === id.trim());
  if (!clause) {
    throw new ConnectError(`No clause "${id.trim()}" in ${initiative.name}.`, Code.NotFound);
  }
  return clause;
}
