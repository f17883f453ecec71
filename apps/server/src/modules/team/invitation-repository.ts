import { and, eq, gt } from "drizzle-orm";
import { user } from "../../auth/auth-schema";
import type { Database } from "../../db/database";
import { organization } from "../tenant/organization-schema";
import { invitation } from "./team-schema";

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type TokenInvitationRow = {
  id: string;
  tenantId: string;
  tenantName: string;
  inviterName: string;
  email: string;
  role: string | null;
  status: string;
  expiresAt: Date;
};

/** The invitation a link's token belongs to, in whichever tenant: the link carries no tenant. */
export async function findInvitationByTokenHashAnyTenant(
  db: Database,
  tokenHash: string,
): Promise<TokenInvitationRow | undefined> {
  const [row] = await db
    .select({
      id: invitation.id,
      tenantId: invitation.organizationId,
      tenantName: organization.name,
      inviterName: user.name,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
    })
    .from(invitation)
    .innerJoin(organization, eq(invitation.organizationId, organization.id))
    .innerJoin(user, eq(invitation.inviterId, user.id))
    .where(eq(invitation.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/**
 * Marks the invitation accepted if it still is pending and unexpired; false when another
 * acceptance got there first (or it was revoked or expired meanwhile). The row lock this
 * update takes makes the token single-use under concurrent requests.
 */
export async function claimInvitation(
  tx: Transaction,
  tenantId: string,
  invitationId: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(invitation)
    .set({ status: "accepted", acceptedAt: now })
    .where(
      and(
        eq(invitation.organizationId, tenantId),
        eq(invitation.id, invitationId),
        eq(invitation.status, "pending"),
        gt(invitation.expiresAt, now),
      ),
    )
    .returning({ id: invitation.id });
  return rows.length > 0;
}
