import type { InvitationLookupJson } from "./api/invitation-queries";

export type InvitationView =
  | {
      kind: "valid";
      tenantName: string;
      inviterName: string;
      role: string;
      email: string;
      expiresAt: Date | undefined;
      hasAccount: boolean;
    }
  | { kind: "closed"; title: string; message: string };

const ROLE_LABELS: Record<string, string> = {
  ROLE_VISITOR: "Visitor",
  ROLE_VIEWER: "Viewer",
  ROLE_MODERATOR: "Moderator",
  ROLE_EDITOR: "Editor",
  ROLE_ADMINISTRATOR: "Administrator",
  ROLE_INTEGRATOR: "Integrator",
};

export function roleLabel(role: string | number | undefined): string {
  return ROLE_LABELS[String(role ?? "")] ?? "Member";
}

/** What the invitation page shows for the answer of the token lookup. */
export function invitationView(lookup: InvitationLookupJson): InvitationView {
  const invitation = lookup.invitation;
  const inviter = invitation?.inviterName || "the person who invited you";
  switch (lookup.state) {
    case "INVITATION_TOKEN_STATE_VALID":
      return {
        kind: "valid",
        tenantName: invitation?.tenantName ?? "",
        inviterName: invitation?.inviterName ?? "",
        role: roleLabel(invitation?.role),
        email: invitation?.email ?? "",
        expiresAt: invitation?.expiresAt ? new Date(invitation.expiresAt) : undefined,
        hasAccount: invitation?.hasAccount ?? false,
      };
    case "INVITATION_TOKEN_STATE_EXPIRED":
      return {
        kind: "closed",
        title: "This invitation has expired",
        message: `This invitation has expired; ask ${inviter} to send a new one.`,
      };
    case "INVITATION_TOKEN_STATE_USED":
      return {
        kind: "closed",
        title: "This invitation has already been used",
        message: `The invitation to ${invitation?.tenantName || "this tenant"} was accepted already. Sign in to reach it.`,
      };
    case "INVITATION_TOKEN_STATE_REVOKED":
      return {
        kind: "closed",
        title: "This invitation was revoked",
        message: `This invitation was revoked; ask ${inviter} to send a new one.`,
      };
    default:
      return {
        kind: "closed",
        title: "This invitation link is not valid",
        message:
          "Check that you opened the whole link from the e-mail, or ask the person who invited you to send a new one.",
      };
  }
}
