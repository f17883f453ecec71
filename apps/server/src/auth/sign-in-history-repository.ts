import { asc, count, desc, eq } from "drizzle-orm";
import type { Database } from "../db/database";
import type { PageWindow } from "../db/page-window";
import { signInEvent } from "./sign-in-history-schema";

export type SignInEventRow = typeof signInEvent.$inferSelect;

export interface NewSignInEvent {
  userId: string;
  method: string;
  /** The single sign-on or social provider, for those methods. */
  provider?: string;
  success: boolean;
  failureReason?: string;
  ipAddress?: string;
  userAgent?: string;
  occurredAt?: Date;
}

// Bounded so a client cannot store an arbitrarily long header per attempt.
const MAX_USER_AGENT = 512;
const MAX_ADDRESS = 64;

export async function insertSignInEvent(db: Database, event: NewSignInEvent): Promise<void> {
  await db.insert(signInEvent).values({
    id: crypto.randomUUID(),
    userId: event.userId,
    method: event.method,
    provider: event.provider ?? null,
    success: event.success,
    failureReason: event.failureReason ?? null,
    ipAddress: event.ipAddress?.slice(0, MAX_ADDRESS) ?? null,
    userAgent: event.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    occurredAt: event.occurredAt ?? new Date(),
  });
}

/** One user's sign-ins, newest first unless the window asks otherwise. */
export async function listSignInEvents(
  db: Database,
  userId: string,
  window: PageWindow,
): Promise<{ rows: SignInEventRow[]; total: number }> {
  const where = eq(signInEvent.userId, userId);
  const order = window.descending ? desc(signInEvent.occurredAt) : asc(signInEvent.occurredAt);
  const rows = await db
    .select()
    .from(signInEvent)
    .where(where)
    .orderBy(order, window.descending ? desc(signInEvent.id) : asc(signInEvent.id))
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(signInEvent).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}
