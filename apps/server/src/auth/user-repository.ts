import { eq } from "drizzle-orm";
import type { Database } from "../db/database";
import { user } from "../db/schema/auth";

export type UserRow = typeof user.$inferSelect;

/** Accounts are Better Auth's; Palisade reads them, and writes them only through its API. */
export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  return row;
}
