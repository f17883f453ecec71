import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../db/database";
import { invitation, member, user } from "../db/schema/auth";

/**
 * Turns the pending, unexpired invitations for a user's e-mail address into memberships.
 * Runs whenever the user signs in, so an invited person only has to sign up with the
 * invited address.
 */
export async function acceptPendingInvitations(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<number> {
  const [account] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  if (!account) return 0;
  const pending = await db
    .select()
    .from(invitation)
    .where(
      and(
        eq(invitation.email, account.email.toLowerCase()),
        eq(invitation.status, "pending"),
        gt(invitation.expiresAt, now),
      ),
    );
  for (const invite of pending) {
    await db.transaction(async (tx) => {
      await tx
        .insert(member)
        .values({
          id: crypto.randomUUID(),
          organizationId: invite.organizationId,
          userId,
          role: invite.role ?? "VIEWER",
        })
        .onConflictDoNothing();
      await tx.update(invitation).set({ status: "accepted" }).where(eq(invitation.id, invite.id));
    });
  }
  return pending.length;
}
