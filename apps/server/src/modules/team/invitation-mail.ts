import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import { enqueueMail } from "../../jobs/send-mail-job";
import { invitationMail } from "../../mail/mail-templates";
import { requireTenant } from "../tenant/tenant-api";

export interface InvitationMailDeps {
  db: Database;
  jobs: JobQueue;
  publicUrl: string;
}

/** The page where the invitee accepts; the token is the link's secret. */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/invite/${encodeURIComponent(token)}`;
}

/** Queues the invitation e-mail; its delivery status is recorded on the invitation as it goes. */
export async function sendInvitationMail(
  deps: InvitationMailDeps,
  invitation: {
    id: string;
    /** The link's secret; only its hash is stored. */
    token: string;
    tenantId: string;
    email: string;
    role: string;
    inviterName: string;
    expiresAt: Date;
  },
): Promise<void> {
  const tenant = await requireTenant(deps.db, invitation.tenantId);
  const link = invitationLink(deps.publicUrl, invitation.token);
  await enqueueMail(deps.jobs, {
    message: invitationMail({
      to: invitation.email,
      inviterName: invitation.inviterName,
      tenantName: tenant.name,
      role: invitation.role,
      link,
      expiresAt: invitation.expiresAt,
    }),
    link,
    deliveryOf: { kind: "invitation", tenantId: invitation.tenantId, invitationId: invitation.id },
  });
}
