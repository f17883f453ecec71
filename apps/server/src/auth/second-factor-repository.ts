import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/database";
import { twoFactor, user, verification } from "./auth-schema";

/** A user's second factor (Better Auth's tables): resetting it and forgetting trusted devices. */
/** The devices a user trusted for 30 days at the second factor (Better Auth's verification rows). */
const trustedDevicesOf = (userId: string) =>
  and(eq(verification.value, userId), sql`${verification.identifier} like 'trust-device-%'`);

/**
 * Removes the authenticator app and backup codes of a user and the devices they trusted; the
 * next sign-in asks for the first factor alone.
 */
export async function resetUserMfa(db: Database, userId: string) {
  await db.transaction(async (tx) => {
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.update(user).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(user.id, userId));
    await tx.delete(verification).where(trustedDevicesOf(userId));
  });
}

/** Forgets the devices the user trusted, so the next sign-in on each asks for the second factor again. */
export async function forgetTrustedDevices(db: Database, userId: string): Promise<void> {
  await db.delete(verification).where(trustedDevicesOf(userId));
}
