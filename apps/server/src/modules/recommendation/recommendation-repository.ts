import { and, asc, count, desc, eq, ilike, isNotNull, isNull, notInArray, or, type SQL } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { PageWindow } from "../../db/page-window";
import type { Finding, FindingScope, Provider } from "./recommendation-rules";
import { recommendations } from "./recommendation-schema";

/** The `recommendations` table; this file is its only reader and writer. */
export type RecommendationRow = typeof recommendations.$inferSelect;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface RecommendationFilter {
  archived: boolean;
  provider: Provider | undefined;
  /** Lower-case text to find in title or description. */
  search: string | undefined;
}

/** Open ones (or the archive), most urgent first, then most recently updated. */
export async function listRecommendations(
  db: Database,
  tenantId: string,
  filter: RecommendationFilter,
  window: PageWindow,
): Promise<{ rows: RecommendationRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [
    eq(recommendations.tenantId, tenantId),
    filter.archived ? isNotNull(recommendations.archivedAt) : isNull(recommendations.archivedAt),
    filter.provider ? eq(recommendations.provider, filter.provider) : undefined,
  ];
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(or(ilike(recommendations.title, pattern), ilike(recommendations.description, pattern)));
  }
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(recommendations)
    .where(where)
    .orderBy(
      ...(filter.archived
        ? [desc(recommendations.archivedAt)]
        : [desc(recommendations.score), desc(recommendations.updatedAt)]),
      asc(recommendations.id),
    )
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(recommendations).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findRecommendation(
  db: Database,
  tenantId: string,
  id: string,
): Promise<RecommendationRow | undefined> {
  const [row] = await db
    .select()
    .from(recommendations)
    .where(and(eq(recommendations.tenantId, tenantId), eq(recommendations.id, id)));
  return row;
}

export async function setArchived(
  db: Database,
  tenantId: string,
  id: string,
  archived: boolean,
): Promise<RecommendationRow | undefined> {
  const [row] = await db
    .update(recommendations)
    .set({ archivedAt: archived ? new Date() : null })
    .where(and(eq(recommendations.tenantId, tenantId), eq(recommendations.id, id)))
    .returning();
  return row;
}

export async function insertManualRecommendation(
  db: Database,
  row: {
    tenantId: string;
    title: string;
    description: string;
    provider: Provider;
    policySlugs: string[];
    scopes: FindingScope[];
    createdBy: string;
  },
): Promise<RecommendationRow> {
  const [stored] = await db
    .insert(recommendations)
    .values({ ...row, source: "manual", kind: "manual", mode: "ALERT", score: 50 })
    .returning();
  if (!stored) throw new Error("recommendation insert returned nothing");
  return stored;
}

/** Records the bundles deployed from it, and archives it. */
export async function markInstalled(
  db: Database,
  tenantId: string,
  id: string,
  bundleIds: string[],
): Promise<RecommendationRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(recommendations)
    .set({ installedAt: now, archivedAt: now, installedBundleIds: bundleIds })
    .where(and(eq(recommendations.tenantId, tenantId), eq(recommendations.id, id)))
    .returning();
  return row;
}

export interface FindingsOutcome {
  created: number;
  updated: number;
  removed: number;
}

/**
 * Stores a computation's findings by their keys: a new key adds a recommendation, a known open
 * one is updated in place, an archived or installed one is left as the team left it (never
 * re-created). Open computed recommendations whose finding no longer holds are removed.
 */
export async function saveFindings(
  db: Database,
  tenantId: string,
  findings: Finding[],
): Promise<FindingsOutcome> {
  return db.transaction(async (tx) => {
    const existing = await tx
      .select({
        id: recommendations.id,
        findingKey: recommendations.findingKey,
        archivedAt: recommendations.archivedAt,
      })
      .from(recommendations)
      .where(and(eq(recommendations.tenantId, tenantId), isNotNull(recommendations.findingKey)));
    const byKey = new Map(existing.map((row) => [row.findingKey, row]));
    const outcome: FindingsOutcome = { created: 0, updated: 0, removed: 0 };
    for (const finding of findings) {
      const values = {
        title: finding.title,
        description: finding.description,
        provider: finding.provider,
        policySlugs: finding.policySlugs,
        kind: finding.kind,
        scopes: finding.scopes,
        mode: finding.mode,
        score: finding.score,
        affectedResourcesCount: finding.affectedResourcesCount,
      };
      const known = byKey.get(finding.key);
      if (!known) {
        await tx
          .insert(recommendations)
          .values({ ...values, tenantId, source: "system", findingKey: finding.key });
        outcome.created++;
      } else if (!known.archivedAt) {
        await tx
          .update(recommendations)
          .set(values)
          .where(and(eq(recommendations.tenantId, tenantId), eq(recommendations.id, known.id)));
        outcome.updated++;
      }
    }
    const keys = findings.map((f) => f.key);
    const stale = await tx
      .delete(recommendations)
      .where(
        and(
          eq(recommendations.tenantId, tenantId),
          eq(recommendations.source, "system"),
          isNull(recommendations.archivedAt),
          isNull(recommendations.installedAt),
          isNotNull(recommendations.findingKey),
          keys.length > 0 ? notInArray(recommendations.findingKey, keys) : undefined,
        ),
      )
      .returning({ id: recommendations.id });
    outcome.removed = stale.length;
    return outcome;
  });
}
