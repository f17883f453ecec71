import { and, desc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/database";
import { session } from "./auth-schema";

/** A session as the account page shows it: never its token. */
export interface SessionSummary {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

/** Sessions are Better Auth's table; the account page reads and ends a user's own here. */
export async function listActiveSessions(db: Database, userId: string, now: Date): Promise<SessionSummary[]> {
  return db
    .select({
      id: session.id,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      expiresAt: session.expiresAt,
    })
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, now)))
    .orderBy(desc(session.updatedAt));
}

/** Ends one of the user's sessions; false when they have no session with this id. */
export async function deleteSession(db: Database, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .delete(session)
    .where(and(eq(session.userId, userId), eq(session.id, sessionId)))
    .returning({ id: session.id });
  return deleted.length > 0;
}

/** Ends every session of the user; answers how many there were. */
export async function deleteAllSessions(db: Database, userId: string): Promise<number> {
  const deleted = await db.delete(session).where(eq(session.userId, userId)).returning({ id: session.id });
  return deleted.length;
}

/** Writes how a new session signed in (the history's method, and the provider of SSO or social sign-in). */
export async function markSessionSignIn(
  db: Database,
  sessionId: string,
  method: string,
  provider: string | undefined,
): Promise<void> {
  await db
    .update(session)
    .set({ signInMethod: method, signInProvider: provider ?? null })
    .where(eq(session.id, sessionId));
}

/** How a session signed in; both empty for sessions made before this was recorded. */
export async function findSessionSignIn(
  db: Database,
  sessionId: string,
): Promise<{ method: string | null; provider: string | null } | undefined> {
  const [row] = await db
    .select({ method: session.signInMethod, provider: session.signInProvider })
    .from(session)
    .where(eq(session.id, sessionId))
    .limit(1);
  return row;
}
