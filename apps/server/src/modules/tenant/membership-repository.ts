import { and, eq } from "drizzle-orm";
import { markEmailVerified } from "../../auth/user-repository";
import type { Database, Transaction } from "../../db/database";
import { member } from "./organization-schema";

/**
 * Memberships of tenants (the identity layer's `member` table): who belongs to a tenant, with
 * which role. The tenant module is their one writer; the team, sso and sign-in paths call these.
 */
export async function updateMemberRole(db: Database, tenantId: string, memberId: string, role: string) {
  await db
    .update(member)
    .set({ role })
    .where(and(eq(member.organizationId, tenantId), eq(member.id, memberId)));
}

export async function deleteMember(db: Database, tenantId: string, memberId: string) {
  await db.delete(member).where(and(eq(member.organizationId, tenantId), eq(member.id, memberId)));
}

/** A membership to add; `createdAt` is the database's now when absent. */
interface NewMember {
  tenantId: string;
  userId: string;
  role: string;
  createdAt?: Date;
}

/** The insert of one membership, under a fresh id. */
function insertMemberRow(db: Database, row: NewMember) {
  return db.insert(member).values({
    id: crypto.randomUUID(),
    organizationId: row.tenantId,
    userId: row.userId,
    role: row.role,
    createdAt: row.createdAt,
  });
}

export async function insertMember(db: Database, row: NewMember): Promise<void> {
  await insertMemberRow(db, row);
}

/** Joins the user to the tenant; an existing membership keeps its role. */
export async function insertMembership(
  tx: Transaction,
  tenantId: string,
  userId: string,
  role: string,
  now: Date,
): Promise<void> {
  await insertMemberRow(tx, { tenantId, userId, role, createdAt: now }).onConflictDoNothing();
}

/**
 * Just-in-time provisioning: joins the user to the tenant with the role unless they are a
 * member already, and marks their address verified (its domain is the tenant's, proved).
 */
export async function provisionSsoMember(
  db: Database,
  values: { tenantId: string; userId: string; role: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await markEmailVerified(tx, values.userId);
    const existing = await tx
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.organizationId, values.tenantId), eq(member.userId, values.userId)));
    if (existing.length > 0) return false;
    await insertMemberRow(tx, values);
    return true;
  });
}
