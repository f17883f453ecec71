import { and, asc, count, desc, eq, gt, ilike, or, type SQL, sql } from "drizzle-orm";
import { account, passkey, user } from "../../auth/auth-schema";
import { signInEvent } from "../../auth/sign-in-history-schema";
import type { Database } from "../../db/database";
import type { PageWindow } from "../../db/page-window";
import { member } from "../tenant/organization-schema";
import { apikey, invitation } from "./team-schema";

export type MemberRow = {
  id: string;
  userId: string;
  role: string;
  joinedAt: Date;
  name: string;
  email: string;
  instanceAdmin: boolean;
  lastSignInAt: Date | null;
  signInMethods: string[];
  passkeyCount: number;
  mfaEnabled: boolean;
};

const memberColumns = {
  id: member.id,
  userId: member.userId,
  role: member.role,
  joinedAt: member.createdAt,
  name: user.name,
  email: user.email,
  instanceAdmin: user.instanceAdmin,
  lastSignInAt: sql<Date | null>`(
    select max(${signInEvent.occurredAt}) from ${signInEvent}
    where ${signInEvent.userId} = ${user.id} and ${signInEvent.success}
  )`.mapWith(signInEvent.occurredAt),
  // A password account, any other linked provider, a code used to sign in, a confirmed phone number.
  signInMethods: sql<string[]>`array(
    select case when ${account.providerId} = 'credential' then 'password' else ${account.providerId} end
    from ${account} where ${account.userId} = ${user.id}
    union
    select ${signInEvent.method} from ${signInEvent}
    where ${signInEvent.userId} = ${user.id} and ${signInEvent.success}
      and ${signInEvent.method} in ('email-otp', 'magic-link', 'enchanted-link')
    union
    select 'phone-otp' where ${user.phoneNumberVerified}
    union
    select 'authenticator' where ${user.twoFactorEnabled}
    order by 1
  )`,
  passkeyCount: sql<number>`(select count(*) from ${passkey} where ${passkey.userId} = ${user.id})`.mapWith(
    Number,
  ),
  mfaEnabled: user.twoFactorEnabled,
};

export async function listMembers(
  db: Database,
  tenantId: string,
  window: PageWindow,
  search: string | undefined,
): Promise<{ rows: MemberRow[]; total: number }> {
  const conditions: SQL[] = [eq(member.organizationId, tenantId)];
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = or(ilike(user.name, pattern), ilike(user.email, pattern));
    if (matches) conditions.push(matches);
  }
  const where = and(...conditions);
  const rows = await db
    .select(memberColumns)
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(where)
    .orderBy(window.descending ? desc(member.createdAt) : asc(member.createdAt), asc(member.id))
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db
    .select({ n: count() })
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** A member of this tenant; another tenant's member id finds nothing. */
export async function findMember(
  db: Database,
  tenantId: string,
  memberId: string,
): Promise<MemberRow | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(and(eq(member.organizationId, tenantId), eq(member.id, memberId)))
    .limit(1);
  return row;
}

export async function countAdministrators(db: Database, tenantId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(member)
    .where(and(eq(member.organizationId, tenantId), eq(member.role, "ADMINISTRATOR")));
  return row?.n ?? 0;
}

export async function findMemberByEmail(db: Database, tenantId: string, email: string) {
  const [row] = await db
    .select({ id: member.id })
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(and(eq(member.organizationId, tenantId), eq(user.email, email)))
    .limit(1);
  return row;
}

export type InvitationRow = Omit<typeof invitation.$inferSelect, "tokenHash" | "acceptedAt"> & {
  inviterName: string;
};

export async function listPendingInvitations(
  db: Database,
  tenantId: string,
  now: Date,
): Promise<InvitationRow[]> {
  return db
    .select({
      id: invitation.id,
      organizationId: invitation.organizationId,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
      createdAt: invitation.createdAt,
      inviterId: invitation.inviterId,
      deliveryStatus: invitation.deliveryStatus,
      deliveryError: invitation.deliveryError,
      inviterName: user.name,
    })
    .from(invitation)
    .innerJoin(user, eq(invitation.inviterId, user.id))
    .where(
      and(
        eq(invitation.organizationId, tenantId),
        eq(invitation.status, "pending"),
        gt(invitation.expiresAt, now),
      ),
    )
    .orderBy(desc(invitation.createdAt));
}

export async function insertInvitation(db: Database, values: typeof invitation.$inferInsert) {
  await db.insert(invitation).values(values);
}

/** Marks a pending invitation of this tenant canceled; false when there is none. */
export async function cancelInvitation(
  db: Database,
  tenantId: string,
  invitationId: string,
): Promise<boolean> {
  const rows = await db
    .update(invitation)
    .set({ status: "canceled" })
    .where(
      and(
        eq(invitation.organizationId, tenantId),
        eq(invitation.id, invitationId),
        eq(invitation.status, "pending"),
      ),
    )
    .returning({ id: invitation.id });
  return rows.length > 0;
}

/**
 * Gives a pending invitation of this tenant a new link and expiry and resets its delivery; the
 * previous link stops working because only the new hash is stored. Undefined when there is none.
 */
export async function renewInvitation(
  db: Database,
  tenantId: string,
  invitationId: string,
  values: { tokenHash: string; expiresAt: Date; inviterId: string },
) {
  const [row] = await db
    .update(invitation)
    .set({ ...values, deliveryStatus: "pending", deliveryError: null })
    .where(
      and(
        eq(invitation.organizationId, tenantId),
        eq(invitation.id, invitationId),
        eq(invitation.status, "pending"),
      ),
    )
    .returning({ email: invitation.email, role: invitation.role, createdAt: invitation.createdAt });
  return row;
}

export type ApiKeyRow = typeof apikey.$inferSelect;

export async function listApiKeys(db: Database, tenantId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apikey).where(eq(apikey.referenceId, tenantId)).orderBy(desc(apikey.createdAt));
}

export async function deleteApiKey(db: Database, tenantId: string, keyId: string): Promise<boolean> {
  const rows = await db
    .delete(apikey)
    .where(and(eq(apikey.referenceId, tenantId), eq(apikey.id, keyId)))
    .returning({ id: apikey.id });
  return rows.length > 0;
}

/** Every tenant a user belongs to, oldest membership first (the user's own view across tenants). */
export async function listMembershipsOfUserAnyTenant(
  db: Database,
  userId: string,
): Promise<{ tenantId: string; role: string }[]> {
  return db
    .select({ tenantId: member.organizationId, role: member.role })
    .from(member)
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt));
}
