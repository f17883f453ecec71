import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  lte,
  notInArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../db/database";
import type { PageWindow } from "../../db/page-window";
import { hierarchyNodes } from "../connector/connector-schema";
import { bundles, deployments } from "../deployment/deployment-schema";
import type { ReportedStatusName, WaiverStatusName } from "./waiver-rules";
import { waivers } from "./waiver-schema";

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
  /** The name of the waived scope in the tenant's synced hierarchy, when it holds it. */
  scopeName: string | null;
};

/** Azure ids differ in case between APIs, so the scope is matched without it. */
const scopeNameColumn = sql<string | null>`(
  select ${hierarchyNodes.name} from ${hierarchyNodes}
  where ${hierarchyNodes.tenantId} = ${waivers.tenantId}
    and lower(${hierarchyNodes.externalId}) = lower(${waivers.scope})
  limit 1
)`;

const viewColumns = {
  waiver: waivers,
  bundleId: bundles.id,
  bundleName: bundles.name,
  policySlug: bundles.policySlug,
  provider: bundles.provider,
  scopeName: scopeNameColumn,
};

function toView(row: {
  waiver: WaiverRow;
  bundleId: string;
  bundleName: string;
  policySlug: string;
  provider: string;
  scopeName: string | null;
}): WaiverView {
  return {
    ...row.waiver,
    bundleId: row.bundleId,
    bundleName: row.bundleName,
    policySlug: row.policySlug,
    provider: row.provider,
    scopeName: row.scopeName,
  };
}

function viewQuery(db: Database) {
  return db
    .select(viewColumns)
    .from(waivers)
    .innerJoin(deployments, eq(waivers.deploymentId, deployments.id))
    .innerJoin(bundles, eq(deployments.bundleId, bundles.id));
}

/**
 * A waiver its requester reads, in any tenant: waivers live in the tenant owning the policy key,
 * which need not be the requester's active tenant.
 */
export async function findOwnWaiverAnyTenant(
  db: Database,
  id: string,
  requester: { userId: string | null; identifier: string },
): Promise<WaiverView | undefined> {
  const [row] = await viewQuery(db)
    .where(
      and(
        eq(waivers.id, id),
        requester.userId
          ? or(
              eq(waivers.requesterUserId, requester.userId),
              eq(waivers.requesterIdentifier, requester.identifier),
            )
          : eq(waivers.requesterIdentifier, requester.identifier),
      ),
    )
    .limit(1);
  return row ? toView(row) : undefined;
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

export async function countOpenWaivers(
  db: Database,
  tenantId: string,
  deploymentId: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(waivers)
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        eq(waivers.deploymentId, deploymentId),
        inArray(waivers.status, ["PENDING", "ACTIVE"]),
      ),
    );
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

export async function findWaivers(db: Database, tenantId: string, ids: string[]): Promise<WaiverView[]> {
  if (ids.length === 0) return [];
  const rows = await viewQuery(db)
    .where(and(eq(waivers.tenantId, tenantId), inArray(waivers.id, ids)))
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
  // Every way a waiver is cancelled passes here or below (cancelOpenWaiversOfBundle): both record when.
  const cancelled = changes.status === "CANCELLED" ? { cancelledAt: changes.cancelledAt ?? new Date() } : {};
  const rows = await db
    .update(waivers)
    .set({ ...changes, ...cancelled })
    .where(and(eq(waivers.tenantId, tenantId), eq(waivers.id, id), eq(waivers.status, from)))
    .returning({ id: waivers.id });
  return rows.length > 0;
}

/** Waivers of the bundle's deployments, oldest first. */
export async function waiversOfBundle(
  db: Database,
  tenantId: string,
  bundleId: string,
): Promise<WaiverRow[]> {
  const rows = await db
    .select({ waiver: waivers })
    .from(waivers)
    .innerJoin(deployments, eq(deployments.id, waivers.deploymentId))
    .where(and(eq(waivers.tenantId, tenantId), eq(deployments.bundleId, bundleId)))
    .orderBy(asc(waivers.createdAt), asc(waivers.id));
  return rows.map((row) => row.waiver);
}

/** Records what the cloud did with waivers: enforced, out of the cloud again, or refused. */
export async function setWaiverDeploymentStatus(
  db: Database,
  tenantId: string,
  ids: string[],
  values: {
    deploymentStatus: "PENDING" | "PROPAGATING" | "ACTIVE" | "FAILED";
    errorCode: string | null;
    propagationEndsAt?: Date | null;
  },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(waivers)
    .set(values)
    .where(and(eq(waivers.tenantId, tenantId), inArray(waivers.id, ids)));
}

/** Cancels the waivers of a bundle that are still pending or active (the bundle is going away). */
export async function cancelOpenWaiversOfBundle(
  db: Database,
  tenantId: string,
  bundleId: string,
): Promise<void> {
  const ids = db
    .select({ id: deployments.id })
    .from(deployments)
    .where(and(eq(deployments.tenantId, tenantId), eq(deployments.bundleId, bundleId)));
  await db
    .update(waivers)
    .set({ status: "CANCELLED", cancelledAt: new Date() })
    .where(
      and(
        eq(waivers.tenantId, tenantId),
        inArray(waivers.deploymentId, ids),
        inArray(waivers.status, ["PENDING", "ACTIVE"]),
      ),
    );
}

/**
 * What users see as the status (waiver-rules' reportedStatus): an active waiver the cloud has
 * received but does not honour yet reads PROPAGATING, one it has not received PENDING.
 */
const reportedStatusSql = sql<string>`case when ${waivers.status} = 'ACTIVE' and ${waivers.deploymentStatus} = 'PROPAGATING' then 'PROPAGATING' when ${waivers.status} = 'ACTIVE' and ${waivers.deploymentStatus} <> 'ACTIVE' then 'PENDING' else ${waivers.status} end`;

function reportedStatusIs(status: ReportedStatusName): SQL | undefined {
  if (status === "ACTIVE") return and(eq(waivers.status, "ACTIVE"), eq(waivers.deploymentStatus, "ACTIVE"));
  if (status === "PROPAGATING")
    return and(eq(waivers.status, "ACTIVE"), eq(waivers.deploymentStatus, "PROPAGATING"));
  if (status === "PENDING") {
    return or(
      eq(waivers.status, "PENDING"),
      and(eq(waivers.status, "ACTIVE"), notInArray(waivers.deploymentStatus, ["ACTIVE", "PROPAGATING"])),
    );
  }
  return eq(waivers.status, status);
}

export interface ListQuery {
  key?: string;
  statuses: ReportedStatusName[];
  requestedBy: string[];
  comment?: string;
  orderBy: "created_at" | "status";
  /** Expiring soon: active waivers ending by then, soonest first. */
  expiringBefore?: Date;
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
  if (query.expiringBefore) {
    conditions.push(
      eq(waivers.status, "ACTIVE"),
      gt(waivers.expiresAt, new Date()),
      lte(waivers.expiresAt, query.expiringBefore),
    );
  }
  const where = and(...conditions);
  const direction = window.descending ? desc : asc;
  const order = query.expiringBefore
    ? [asc(waivers.expiresAt), asc(waivers.id)]
    : query.orderBy === "status"
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
): Promise<Record<ReportedStatusName, number>> {
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
  const counts: Record<ReportedStatusName, number> = {
    PENDING: 0,
    PROPAGATING: 0,
    ACTIVE: 0,
    EXPIRED: 0,
    CANCELLED: 0,
    REJECTED: 0,
  };
  for (const row of rows) {
    if (row.status in counts) counts[row.status as ReportedStatusName] = Number(row.n);
  }
  return counts;
}

/** Active waivers whose time is up, across tenants (the expiry job). */
export async function dueWaiversAnyTenant(db: Database, now: Date): Promise<WaiverView[]> {
  const rows = await viewQuery(db)
    .where(and(eq(waivers.status, "ACTIVE"), lte(waivers.expiresAt, now)))
    .orderBy(asc(waivers.expiresAt))
    .limit(1_000);
  return rows.map(toView);
}
