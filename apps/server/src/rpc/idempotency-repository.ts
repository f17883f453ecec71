import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../db/database";
import { idempotentCalls } from "./idempotency-schema";

export interface IdempotentCallKey {
  callerId: string;
  procedure: string;
  key: string;
}

const where = (tenantId: string, call: IdempotentCallKey) =>
  and(
    eq(idempotentCalls.tenantId, tenantId),
    eq(idempotentCalls.callerId, call.callerId),
    eq(idempotentCalls.procedure, call.procedure),
    eq(idempotentCalls.key, call.key),
  );

/**
 * Claims the key for a first call; otherwise returns the claim already made (its answer, or an
 * empty answer while that call runs). Claims older than `before` are forgotten first.
 */
export async function claimIdempotentCall(
  db: Database,
  tenantId: string,
  call: IdempotentCallKey & { requestDigest: string },
  before: Date,
): Promise<{ claimed: true } | { claimed: false; requestDigest: string; response: string | null }> {
  await db
    .delete(idempotentCalls)
    .where(and(eq(idempotentCalls.tenantId, tenantId), lt(idempotentCalls.createdAt, before)));
  const inserted = await db
    .insert(idempotentCalls)
    .values({ tenantId, ...call })
    .onConflictDoNothing()
    .returning({ key: idempotentCalls.key });
  if (inserted.length > 0) return { claimed: true };
  const [existing] = await db
    .select({ requestDigest: idempotentCalls.requestDigest, response: idempotentCalls.response })
    .from(idempotentCalls)
    .where(where(tenantId, call));
  // Forgotten between the two statements: the key is free again.
  if (!existing) return claimIdempotentCall(db, tenantId, call, before);
  return { claimed: false, ...existing };
}

export async function recordIdempotentAnswer(
  db: Database,
  tenantId: string,
  call: IdempotentCallKey,
  response: string,
): Promise<void> {
  await db.update(idempotentCalls).set({ response }).where(where(tenantId, call));
}

/** A first call that failed frees its key: the retry runs. */
export async function releaseIdempotentCall(
  db: Database,
  tenantId: string,
  call: IdempotentCallKey,
): Promise<void> {
  await db
    .delete(idempotentCalls)
    .where(and(where(tenantId, call), sql`${idempotentCalls.response} is null`));
}
