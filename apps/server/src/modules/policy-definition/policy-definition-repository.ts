import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles } from "../deployment/deployment-schema";
import { policyDefinitions } from "./policy-definition-schema";

export interface TenantDefinitionRow {
  slug: string;
  /** Checked with the catalogue's rules before it was stored. */
  definition: Definition;
  createdAt: Date;
}

const rowColumns = {
  slug: policyDefinitions.slug,
  definition: policyDefinitions.definition,
  createdAt: policyDefinitions.createdAt,
};

export async function listTenantDefinitions(db: Database, tenantId: string): Promise<TenantDefinitionRow[]> {
  const rows = await db
    .select(rowColumns)
    .from(policyDefinitions)
    .where(eq(policyDefinitions.tenantId, tenantId));
  return rows as TenantDefinitionRow[];
}

export async function findTenantDefinition(
  db: Database,
  tenantId: string,
  slug: string,
): Promise<TenantDefinitionRow | undefined> {
  const [row] = await db
    .select(rowColumns)
    .from(policyDefinitions)
    .where(and(eq(policyDefinitions.tenantId, tenantId), eq(policyDefinitions.slug, slug)))
    .limit(1);
  return row as TenantDefinitionRow | undefined;
}

function storedColumns(definition: Definition) {
  return {
    enforcer: definition.enforcer,
    displayName: definition.display_name,
    definition,
    isVisible: definition.is_visible,
  };
}

/** Stores a new definition of the tenant; undefined when the tenant already has that slug. */
export async function insertTenantDefinition(
  db: Database,
  tenantId: string,
  definition: Definition,
  createdBy: string,
): Promise<TenantDefinitionRow | undefined> {
  const [row] = await db
    .insert(policyDefinitions)
    .values({ tenantId, slug: definition.slug, createdBy, ...storedColumns(definition) })
    .onConflictDoNothing({ target: [policyDefinitions.tenantId, policyDefinitions.slug] })
    .returning(rowColumns);
  return row as TenantDefinitionRow | undefined;
}

/** Stores the tenant's version of a definition, replacing the one it had. */
export async function upsertTenantDefinition(
  db: Database,
  tenantId: string,
  definition: Definition,
  createdBy: string,
): Promise<TenantDefinitionRow> {
  const [row] = await db
    .insert(policyDefinitions)
    .values({ tenantId, slug: definition.slug, createdBy, ...storedColumns(definition) })
    .onConflictDoUpdate({
      target: [policyDefinitions.tenantId, policyDefinitions.slug],
      set: { ...storedColumns(definition), updatedAt: new Date() },
    })
    .returning(rowColumns);
  if (!row) throw new Error(`policy definition ${definition.slug} was not stored`);
  return row as TenantDefinitionRow;
}

/**
 * Deployment modes in use per policy slug: the tenant's bundles that are not deleted.
 * Few rows per tenant (one per slug and mode).
 */
export async function deployedModes(
  db: Database,
  tenantId: string,
): Promise<{ slug: string; mode: string }[]> {
  return db
    .selectDistinct({ slug: bundles.policySlug, mode: bundles.mode })
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), isNull(bundles.deletedAt), ne(bundles.status, "DELETED")));
}
