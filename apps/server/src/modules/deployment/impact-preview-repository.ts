import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/database";
import { hierarchyNodes } from "../connector/connector-schema";
import { impactPreviews } from "./impact-preview-schema";

/** The `impact_previews` table; this file is its only writer. */
export type ImpactPreviewRow = typeof impactPreviews.$inferSelect;
export type NewImpactPreview = Omit<
  typeof impactPreviews.$inferInsert,
  "id" | "status" | "pagesRead" | "recordsEvaluated" | "createdAt" | "updatedAt"
>;
type ImpactPreviewChange = Partial<
  Pick<
    typeof impactPreviews.$inferInsert,
    | "status"
    | "pagesRead"
    | "recordsEvaluated"
    | "periodStart"
    | "periodEnd"
    | "result"
    | "error"
    | "startedAt"
    | "finishedAt"
    | "createdBy"
  >
>;

export async function findImpactPreview(
  db: Database,
  tenantId: string,
  id: string,
): Promise<ImpactPreviewRow | undefined> {
  const [row] = await db
    .select()
    .from(impactPreviews)
    .where(and(eq(impactPreviews.tenantId, tenantId), eq(impactPreviews.id, id)));
  return row;
}

export async function findImpactPreviewByKey(
  db: Database,
  tenantId: string,
  cacheKey: string,
): Promise<ImpactPreviewRow | undefined> {
  const [row] = await db
    .select()
    .from(impactPreviews)
    .where(and(eq(impactPreviews.tenantId, tenantId), eq(impactPreviews.cacheKey, cacheKey)));
  return row;
}

/** Inserts the row, or answers undefined when a row with the same cache key exists already. */
export async function insertImpactPreview(
  db: Database,
  row: NewImpactPreview,
): Promise<ImpactPreviewRow | undefined> {
  const [inserted] = await db
    .insert(impactPreviews)
    .values(row)
    .onConflictDoNothing({ target: [impactPreviews.tenantId, impactPreviews.cacheKey] })
    .returning();
  return inserted;
}

export async function updateImpactPreview(
  db: Database,
  tenantId: string,
  id: string,
  change: ImpactPreviewChange,
): Promise<void> {
  await db
    .update(impactPreviews)
    .set(change)
    .where(and(eq(impactPreviews.tenantId, tenantId), eq(impactPreviews.id, id)));
}

/** Starts the row over for a new replay, unless another request did so meanwhile (then false). */
export async function requeueImpactPreview(
  db: Database,
  tenantId: string,
  id: string,
  createdBy: string | null,
): Promise<boolean> {
  const rows = await db
    .update(impactPreviews)
    .set({
      status: "QUEUED",
      pagesRead: 0,
      recordsEvaluated: 0,
      periodStart: null,
      periodEnd: null,
      result: null,
      error: null,
      startedAt: null,
      finishedAt: null,
      createdBy,
    })
    .where(
      and(
        eq(impactPreviews.tenantId, tenantId),
        eq(impactPreviews.id, id),
        inArray(impactPreviews.status, ["SUCCEEDED", "FAILED"]),
      ),
    )
    .returning({ id: impactPreviews.id });
  return rows.length > 0;
}

/** Names of accounts and subscriptions, for the top lists and samples. */
export async function hierarchyNames(
  db: Database,
  tenantId: string,
  connectorId: string,
  externalIds: string[],
): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .select({ externalId: hierarchyNodes.externalId, name: hierarchyNodes.name })
    .from(hierarchyNodes)
    .where(
      and(
        eq(hierarchyNodes.tenantId, tenantId),
        eq(hierarchyNodes.connectorId, connectorId),
        inArray(hierarchyNodes.externalId, externalIds),
      ),
    );
  return new Map(rows.map((r) => [r.externalId, r.name]));
}
