import { and, asc, count, desc, eq, gte, like, lt, type SQL } from "drizzle-orm";
import type { Database } from "../../db/database";
import type { PageWindow } from "../../db/page-window";
import type { AuditRow } from "./audit-repository";
import { auditLog } from "./audit-schema";

export interface AuditQuery {
  actorId?: string;
  /** The action in full, or its method name alone ("ChangeRole"). */
  action?: string;
  targetType?: string;
  targetId?: string;
  /** [from, to) */
  from?: Date;
  to?: Date;
}

function conditions(tenantId: string, query: AuditQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(auditLog.tenantId, tenantId)];
  if (query.actorId) where.push(eq(auditLog.actorId, query.actorId));
  if (query.action) {
    const action = query.action;
    where.push(
      action.includes(".") ? eq(auditLog.action, action) : like(auditLog.action, `%.${escapeLike(action)}`),
    );
  }
  if (query.targetType) where.push(eq(auditLog.targetType, query.targetType));
  if (query.targetId) where.push(eq(auditLog.targetId, query.targetId));
  if (query.from) where.push(gte(auditLog.createdAt, query.from));
  if (query.to) where.push(lt(auditLog.createdAt, query.to));
  return and(...where);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of a tenant's records, newest first unless the window asks otherwise. */
export async function listAuditRecords(
  db: Database,
  tenantId: string,
  query: AuditQuery,
  window: PageWindow,
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = conditions(tenantId, query);
  const [counted] = await db.select({ total: count() }).from(auditLog).where(where);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(window.descending ? desc(auditLog.sequence) : asc(auditLog.sequence))
    .limit(window.limit)
    .offset(window.offset);
  return { rows, total: counted?.total ?? 0 };
}

/** The records of a query, oldest first, a page at a time (for exports). */
export async function* auditRecordPages(
  db: Database,
  tenantId: string,
  query: AuditQuery,
  pageSize = 500,
): AsyncIterable<AuditRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(conditions(tenantId, query), gte(auditLog.sequence, after + 1)))
      .orderBy(asc(auditLog.sequence))
      .limit(pageSize);
    if (rows.length === 0) return;
    yield rows;
    after = (rows.at(-1) as AuditRow).sequence;
    if (rows.length < pageSize) return;
  }
}

export async function countAuditRecords(db: Database, tenantId: string, query: AuditQuery): Promise<number> {
  const [counted] = await db.select({ total: count() }).from(auditLog).where(conditions(tenantId, query));
  return counted?.total ?? 0;
}
