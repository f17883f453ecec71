import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/database";
import { bundles } from "./deployment-schema";

export type BundleRow = typeof bundles.$inferSelect;

/** A scope as stored on bundles and deployments (the contract's Scope in JSON form). */
export interface StoredScope {
  externalId: string;
  name: string;
  /** HierarchyNodeType (`AWS_OU`, `AZURE_SUBSCRIPTION`…). */
  type: string;
  provider: "aws" | "azure";
  connectorId: string;
}

/** Postgres unique_violation, as PGlite and node-postgres report it (possibly wrapped by drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === "23505") return true;
    e = e.cause as typeof e;
  }
  return false;
}

export async function findBundle(db: Database, tenantId: string, id: string): Promise<BundleRow | undefined> {
  const [row] = await db
    .select()
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, id)))
    .limit(1);
  return row;
}

/** By key across every tenant (keys are unique across tenants); the key is matched case-insensitively. */
export async function findBundleByKeyAnyTenant(db: Database, key: string): Promise<BundleRow | undefined> {
  const [row] = await db.select().from(bundles).where(eq(bundles.key, key.trim().toUpperCase())).limit(1);
  return row;
}

export async function updateBundle(
  db: Database,
  tenantId: string,
  id: string,
  values: Partial<typeof bundles.$inferInsert>,
): Promise<BundleRow | undefined> {
  const [row] = await db
    .update(bundles)
    .set(values)
    .where(and(eq(bundles.tenantId, tenantId), eq(bundles.id, id)))
    .returning();
  return row;
}

export async function listNamespaces(db: Database, tenantId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ namespace: bundles.namespace })
    .from(bundles)
    .where(
      and(eq(bundles.tenantId, tenantId), isNull(bundles.deletedAt), sql`${bundles.namespace} is not null`),
    )
    .orderBy(asc(bundles.namespace));
  return rows.map((row) => row.namespace ?? "").filter((namespace) => namespace !== "");
}

export async function summariseBundles(
  db: Database,
  tenantId: string,
  namespace: string | undefined,
): Promise<{ mode: string; policies: number }[]> {
  return db
    .select({ mode: bundles.mode, policies: count() })
    .from(bundles)
    .where(
      and(
        eq(bundles.tenantId, tenantId),
        isNull(bundles.deletedAt),
        namespace !== undefined ? eq(bundles.namespace, namespace) : undefined,
      ),
    )
    .groupBy(bundles.mode);
}
