import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../../db/database";
import { deployedModes, listTenantDefinitions } from "./policy-definition-repository";

/** A definition as one tenant sees it. */
export interface TenantDefinition {
  definition: Definition;
  /** The tenant wrote it, or upgraded the catalogue's definition of that slug. */
  own: boolean;
  /** Only the tenant's own definitions have one. */
  createdAt: Date | undefined;
  state: PolicyDefinitionState;
}

export interface TenantCatalogue {
  /** Catalogue order, the tenant's versions in place of the ones they upgrade, then its new ones. */
  definitions: TenantDefinition[];
  bySlug: ReadonlyMap<string, TenantDefinition>;
}

/** The strongest mode among a slug's live bundles. */
export function stateOfModes(modes: readonly string[]): PolicyDefinitionState {
  if (modes.includes("PREVENT")) return PolicyDefinitionState.PREVENT;
  if (modes.includes("ALERT")) return PolicyDefinitionState.ALERT;
  return PolicyDefinitionState.NOT_INSTALLED;
}

/** The catalogue merged with the tenant's own definitions, each with its state in the tenant. */
export async function loadTenantCatalogue(
  db: Database,
  catalogue: Catalogue,
  tenantId: string,
): Promise<TenantCatalogue> {
  const [rows, modes] = await Promise.all([listTenantDefinitions(db, tenantId), deployedModes(db, tenantId)]);
  const modesBySlug = new Map<string, string[]>();
  for (const { slug, mode } of modes) modesBySlug.set(slug, [...(modesBySlug.get(slug) ?? []), mode]);
  const state = (slug: string) => stateOfModes(modesBySlug.get(slug) ?? []);

  const ownBySlug = new Map(rows.map((row) => [row.slug, row]));
  const definitions: TenantDefinition[] = catalogue.definitions.map((definition) => {
    const own = ownBySlug.get(definition.slug);
    return own
      ? { definition: own.definition, own: true, createdAt: own.createdAt, state: state(own.slug) }
      : { definition, own: false, createdAt: undefined, state: state(definition.slug) };
  });
  for (const row of [...rows].sort((a, b) => a.slug.localeCompare(b.slug))) {
    if (!catalogue.bySlug.has(row.slug)) {
      definitions.push({
        definition: row.definition,
        own: true,
        createdAt: row.createdAt,
        state: state(row.slug),
      });
    }
  }
  return { definitions, bySlug: new Map(definitions.map((entry) => [entry.definition.slug, entry])) };
}
