import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/database";
import { invitation } from "./team-schema";

/** pending: queued or being retried; sent: accepted by the mail server; failed: given up. */
export type InvitationDeliveryStatus = "pending" | "sent" | "failed";

export type InvitationDeliveryOutcome =
  | { status: "sent" }
  | { status: "retrying"; error: string }
  | { status: "failed"; error: string };

/** Records how the invitation e-mail fared; the error of a failed attempt stays until one succeeds. */
export async function recordInvitationDelivery(
  db: Database,
  target: { tenantId: string; invitationId: string },
  outcome: InvitationDeliveryOutcome,
): Promise<void> {
  const values =
    outcome.status === "sent"
      ? { deliveryStatus: "sent", deliveryError: null }
      : { deliveryStatus: outcome.status === "failed" ? "failed" : "pending", deliveryError: outcome.error };
  await db
    .update(invitation)
    .set(values)
    .where(and(eq(invitation.organizationId, target.tenantId), eq(invitation.id, target.invitationId)));
}
