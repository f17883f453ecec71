import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNull,
  lte,
  ne,
  notInArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../db/database";
import { member } from "../../db/schema/auth";
import { hierarchyNodes } from "../../db/schema/connectors";
import { bundles, deployments, waivers } from "../../db/schema/deployments";
import { auditLog } from "../../db/schema/operations";
import { tenantSettings } from "../../db/schema/tenants";
import type { PageWindow } from "../../rpc/pagination";
import type { WaiverStatusName } from "./waiver-rules";

export type WaiverRow = typeof waivers.$inferSelect;
export type WaiverInsert = typeof waivers.$inferInsert;
export type BundleRow = typeof bundles.$inferSelect;
export type DeploymentRow = typeof deployments.$inferSelect;

/** A waiver with the bundle it belongs to, as every RPC reports it. */
export type WaiverView = WaiverRow & {
  bundleId: string;
  bundleName: string;
  policySlug: string;
  provider: string;
};

const viewColumns = {
  waiver: waivers,
  bundleId: bundles.id,
  bundleName: bundles.name,
  policySlug: bundles.policySlug,
  provider: bundles.provider,
};

function toView(row: {
  waiver: WaiverRow;
  bundleId: string;
  bundleName: string;
  policySlug: string;
  provider: string;
}): WaiverView {
  return {
    ...row.waiver,
    bundleId: row.bundleId,
    bundleName: row.bundleName,
    policySlug: row.policySlug,
    provider: row.provider,
  };
}

function viewQuery(db: Database) {
  return db
    .select(viewColumns)
    .from(waivers)
    .innerJoin(deployments, eq(waivers.deploymentId, deployments.id))
    .innerJoin(bundles, eq(deployments.bundleId, bundles.id));
}

/** The bundle holding a policy key, in any tenant (the key's tenant decides, not the caller's). */
export async function findLiveBundleByKey(db: Database, key: string): Promise<BundleRow | undefined> {
  const [row] = await db
    .select()
    .from(bundles)
    .where(and(sql`upper(${bundles.key}) = ${key.toUpperCase()}`, isNull(bundles.deletedAt)))
    .limit(1);
  return row;
}

/** Whether this tenant has (or had) a bundle with the key; its waivers outlive the bundle. */
export async function tenantHasKey(db: Database, tenantId: string, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bundles.id })
    .from(bundles)
    .where(and(eq(bundles.tenantId, tenantId), sql`upper(${bundles.key}) = ${key.toUpperCase()}`))
    .limit(1);
  return row !== undefined;
}

/** The bundle's deployments that are (or are being) in the cloud: a removed scope takes no new waivers. */
export async function deploymentsOfBundle(db: Database, bundleId: string): Promise<DeploymentRow[]> {
  return db
    .select()
    .from(deployments)
    .where(and(eq(deployments.bundleId, bundleId), notInArray(deployments.status, ["DELETED", "DELETING"])))
    .orderBy(asc(deployments.createdAt), asc(deployments.id));
}

/** The parent of a node of the tenant's cloud hierarchy (an account's OU, an OU's parent...). */
export async function parentScope(
  db: Database,
  tenantId: string,
  externalId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ parent: hierarchyNodes.parentExternalId })
    .from(hierarchyNodes)
    .where(
      and(
        eq(hierarchyNodes.tenantId, tenantId),
        sql`lower(${hierarchyNodes.externalId}) = ${externalId.toLowerCase()}`,
      ),
    )
    .limit(1);
  return row?.parent ?? undefined;
}

export async function membershipRole(
  db: Database,
  tenantId: string,
  userId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, tenantId), eq(member.userId, userId)))
    .limit(1);
  return row?.role;
}

export async function maxWaiverHours(db: Database, tenantId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ hours: tenantSettings.maxWaiverDurationHours })
    .from(tenantSettings)
    .where(eq(tenantSettings.tenantId, tenantId))
    .limit(1);
  return row?.hours;
}

/** Serialises waiver creation per bundle until the transaction ends (cap and idempotency checks). */
export async function lockBundleForWaivers(tx: Database, bundleId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`waiver-create:${bundleId}`}))`);
}

export async function findByIdempotencyKey(
  db: Database,
  tenantId: string,
  requesterIdentifier: string,
  idempotencyKey: string,
  since: Date,
): Promise<WaiverView | undefined> {
  const [row] = await viewQuery(db)
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        eq(waivers.requesterIdentifier, requesterIdentifier),
        eq(waivers.idempotencyKey, idempotencyKey),
        gt(waivers.createdAt, since),
      ),
    )
    .orderBy(asc(waivers.createdAt), asc(waivers.id))
    .limit(1);
  return row ? toView(row) : undefined;
}

export async function countOpenWaivers(db: Database, deploymentId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(waivers)
    .where(and(eq(waivers.deploymentId, deploymentId), inArray(waivers.status, ["PENDING", "ACTIVE"])));
  return row?.n ?? 0;
}

export async function insertWaivers(db: Database, rows: WaiverInsert[]): Promise<WaiverRow[]> {
  return db.insert(waivers).values(rows).returning();
}

export async function findWaiver(
  db: Database,
  tenantId: string,
  id: string,
): Promise<WaiverView | undefined> {
  const [row] = await viewQuery(db)
    .where(and(eq(waivers.tenantId, tenantId), eq(waivers.id, id)))
    .limit(1);
  return row ? toView(row) : undefined;
}

export async function findWaivers(db: Database, ids: string[]): Promise<WaiverView[]> {
  if (ids.length === 0) return [];
  const rows = await viewQuery(db)
    .where(inArray(waivers.id, ids))
    .orderBy(asc(waivers.createdAt), asc(waivers.id));
  return rows.map(toView);
}

export async function openWaiversOfKey(db: Database, tenantId: string, key: string): Promise<WaiverView[]> {
  const rows = await viewQuery(db)
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        sql`upper(${waivers.policyKey}) = ${key.toUpperCase()}`,
        inArray(waivers.status, ["PENDING", "ACTIVE"]),
      ),
    )
    .orderBy(asc(waivers.createdAt), asc(waivers.id));
  return rows.map(toView);
}

/**
 * Moves a waiver from `from` to its next state; false when another call changed it first
 * (the caller re-reads it and reports the state it found).
 */
export async function transitionWaiver(
  db: Database,
  tenantId: string,
  id: string,
  from: WaiverStatusName,
  changes: Partial<WaiverInsert> & { status: WaiverStatusName },
): Promise<boolean> {
  const rows = await db
    .update(waivers)
    .set(changes)
    .where(and(eq(waivers.tenantId, tenantId), eq(waivers.id, id), eq(waivers.status, from)))
    .returning({ id: waivers.id });
  return rows.length > 0;
}

/** What users see as the status: an active waiver the cloud has not received reads PENDING. */
const reportedStatusSql = sql<string>`case when ${waivers.status} = 'ACTIVE' and ${waivers.deploymentStatus} <> 'ACTIVE' then 'PENDING' else ${waivers.status} end`;

function reportedStatusIs(status: WaiverStatusName): SQL | undefined {
  if (status === "ACTIVE") return and(eq(waivers.status, "ACTIVE"), eq(waivers.deploymentStatus, "ACTIVE"));
  if (status === "PENDING") {
    return or(
      eq(waivers.status, "PENDING"),
      and(eq(waivers.status, "ACTIVE"), ne(waivers.deploymentStatus, "ACTIVE")),
    );
  }
  return eq(waivers.status, status);
}

export interface ListQuery {
  key?: string;
  statuses: WaiverStatusName[];
  requestedBy: string[];
  comment?: string;
  orderBy: "created_at" | "status";
}

export async function listWaivers(
  db: Database,
  tenantId: string,
  query: ListQuery,
  window: PageWindow,
): Promise<{ rows: WaiverView[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(waivers.tenantId, tenantId)];
  if (query.key) conditions.push(sql`upper(${waivers.policyKey}) = ${query.key.toUpperCase()}`);
  if (query.statuses.length > 0) conditions.push(or(...query.statuses.map(reportedStatusIs)));
  if (query.requestedBy.length > 0) conditions.push(inArray(waivers.requesterIdentifier, query.requestedBy));
  if (query.comment) {
    conditions.push(ilike(waivers.comment, `%${query.comment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  }
  const where = and(...conditions);
  const direction = window.descending ? desc : asc;
  const order =
    query.orderBy === "status"
      ? [direction(reportedStatusSql), direction(waivers.createdAt), asc(waivers.id)]
      : [direction(waivers.createdAt), asc(waivers.id)];
  const rows = await viewQuery(db)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(waivers).where(where);
  return { rows: rows.map(toView), total: total?.n ?? 0 };
}

export async function listCreators(
  db: Database,
  tenantId: string,
  key: string | undefined,
): Promise<{ name: string; identifier: string }[]> {
  const rows = await db
    .selectDistinctOn([waivers.requesterIdentifier], {
      identifier: waivers.requesterIdentifier,
      name: waivers.requesterName,
    })
    .from(waivers)
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        key ? sql`upper(${waivers.policyKey}) = ${key.toUpperCase()}` : undefined,
      ),
    )
    // The newest name a requester used, in case they renamed themselves.
    .orderBy(asc(waivers.requesterIdentifier), desc(waivers.createdAt));
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.identifier.localeCompare(b.identifier));
}

export async function summarize(
  db: Database,
  tenantId: string,
  keys: string[],
): Promise<Record<WaiverStatusName, number>> {
  const rows = await db
    .select({ status: reportedStatusSql, n: count() })
    .from(waivers)
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        keys.length > 0
          ? inArray(
              sql`upper(${waivers.policyKey})`,
              keys.map((k) => k.toUpperCase()),
            )
          : undefined,
      ),
    )
    .groupBy(reportedStatusSql);
  const counts: Record<WaiverStatusName, number> = {
    PENDING: 0,
    ACTIVE: 0,
    EXPIRED: 0,
    CANCELLED: 0,
    REJECTED: 0,
  };
  for (const row of rows) {
    if (row.status in counts) counts[row.status as WaiverStatusName] = Number(row.n);
  }
  return counts;
}

/** Active waivers whose time is up, across tenants (the expiry job). */
export async function dueWaivers(db: Database, now: Date): Promise<WaiverView[]> {
  const rows = await viewQuery(db)
    .where(and(eq(waivers.status, "ACTIVE"), lte(waivers.expiresAt, now)))
    .orderBy(asc(waivers.expiresAt))
    .limit(1_000);
  return rows.map(toView);
}

/** Marks due waivers EXPIRED; returns the ones this call changed. */
export async function expireWaivers(db: Database, ids: string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(waivers)
    .set({ status: "EXPIRED" })
    .where(and(inArray(waivers.id, ids), eq(waivers.status, "ACTIVE"), lte(waivers.expiresAt, now)))
    .returning({ id: waivers.id });
  return rows.map((r) => r.id);
}

/** An audit record for a change no caller made (expiry). */
export async function writeSystemAudit(
  db: Database,
  entry: { tenantId: string; action: string; targetId: string; details: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    tenantId: entry.tenantId,
    actorType: "system",
    actorName: "Palisade",
    action: entry.action,
    targetType: "waiver",
    targetId: entry.targetId,
    details: entry.details,
  });
}
