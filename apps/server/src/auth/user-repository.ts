import { eq } from "drizzle-orm";
import type { Database } from "../db/database";
import { account, user } from "../db/schema/auth";

export type UserRow = typeof user.$inferSelect;

/**
 * Accounts are Better Auth's tables. Palisade writes one itself only where Better Auth has no
 * call for it: an invitee's account, whose address the invitation link has proved.
 */
export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(user).where(eq(user.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  return row;
}

/** The address is proven (a link sent to it was used). */
export async function markEmailVerified(db: Database, id: string): Promise<void> {
  await db.update(user).set({ emailVerified: true, updatedAt: new Date() }).where(eq(user.id, id));
}

/** A password account whose address is verified. */
export async function insertVerifiedPasswordUser(
  tx: Database,
  values: { id: string; name: string; email: string; passwordHash: string; now: Date },
): Promise<void> {
  await tx.insert(user).values({
    id: values.id,
    name: values.name,
    email: values.email,
    emailVerified: true,
    createdAt: values.now,
    updatedAt: values.now,
  });
  // Better Auth's password accounts: provider "credential", account id = user id.
  await tx.insert(account).values({
    id: crypto.randomUUID(),
    accountId: values.id,
    providerId: "credential",
    userId: values.id,
    password: values.passwordHash,
    createdAt: values.now,
    updatedAt: values.now,
  });
}
