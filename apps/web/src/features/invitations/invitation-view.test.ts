import { describe, expect, it } from "vitest";
import type { InvitationLookupJson } from "./api/invitation-queries";
import { invitationView } from "./invitation-view";

const invitation = {
  tenantName: "Blue Team",
  inviterName: "Alice Admin",
  role: "ROLE_EDITOR",
  email: "dana@example.com",
  expiresAt: "2026-11-30T12:00:00Z",
  hasAccount: false,
} as InvitationLookupJson["invitation"];

function viewOf(state: string, withInvitation = true) {
  return invitationView({
    state,
    invitation: withInvitation ? invitation : undefined,
  } as InvitationLookupJson);
}

describe("invitation page view", () => {
  it("shows the tenant, the inviter, the role and the expiry of a valid invitation", () => {
    expect(viewOf("INVITATION_TOKEN_STATE_VALID")).toEqual({
      kind: "valid",
      tenantName: "Blue Team",
      inviterName: "Alice Admin",
      role: "Editor",
      email: "dana@example.com",
      expiresAt: new Date("2026-11-30T12:00:00Z"),
      hasAccount: false,
    });
  });

  it.each([
    [
      "INVITATION_TOKEN_STATE_EXPIRED",
      true,
      "This invitation has expired; ask Alice Admin to send a new one.",
    ],
    [
      "INVITATION_TOKEN_STATE_REVOKED",
      true,
      "This invitation was revoked; ask Alice Admin to send a new one.",
    ],
    [
      "INVITATION_TOKEN_STATE_USED",
      true,
      "The invitation to Blue Team was accepted already. Sign in to reach it.",
    ],
    [
      "INVITATION_TOKEN_STATE_UNKNOWN",
      false,
      "Check that you opened the whole link from the e-mail, or ask the person who invited you to send a new one.",
    ],
  ])("explains a %s token", (state, withInvitation, message) => {
    const view = viewOf(state, withInvitation);
    expect(view.kind).toBe("closed");
    expect(view.kind === "closed" && view.message).toBe(message);
  });
});
