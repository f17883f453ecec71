import { and, asc, count, desc, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../db/database";
import { member, organization } from "../modules/tenant/organization-schema";
import { account, session, user } from "./auth-schema";

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

/** Instance administrators create tenants and may promote other users. */
export async function setInstanceAdmin(db: Database, userId: string, instanceAdmin: boolean): Promise<void> {
  await db.update(user).set({ instanceAdmin, updatedAt: new Date() }).where(eq(user.id, userId));
}

export async function countInstanceAdmins(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(user).where(eq(user.instanceAdmin, true));
  return row?.n ?? 0;
}

/** The first administrator of the oldest tenant: the one who set the instance up. */
export async function findFirstAdministratorAnyTenant(db: Database): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: member.userId })
    .from(member)
    .innerJoin(organization, eq(member.organizationId, organization.id))
    .where(eq(member.role, "ADMINISTRATOR"))
    .orderBy(asc(organization.createdAt), asc(member.createdAt))
    .limit(1);
  return row?.userId;
}

/**
 * The tenant the user chose last, read from their most recent session that had one: a new
 * sign-in starts there.
 */
export async function findLastActiveTenant(db: Database, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ tenantId: session.activeOrganizationId })
    .from(session)
    .innerJoin(
      member,
      and(eq(member.userId, session.userId), eq(member.organizationId, session.activeOrganizationId)),
    )
    .where(and(eq(session.userId, userId), isNotNull(session.activeOrganizationId)))
    .orderBy(desc(session.updatedAt))
    .limit(1);
  return row?.tenantId ?? undefined;
}

/** An account without a password whose address is not proved yet: signing in with an e-mailed code verifies it. */
export async function insertUnverifiedUser(
  db: Database,
  values: { id: string; name: string; email: string; now: Date },
): Promise<void> {
  await db.insert(user).values({
    id: values.id,
    name: values.name,
    email: values.email,
    emailVerified: false,
    createdAt: values.now,
    updatedAt: values.now,
  });
}

export async function deleteUser(db: Database, userId: string): Promise<void> {
  await db.delete(user).where(eq(user.id, userId));
}
