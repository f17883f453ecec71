import { type APIRequestContext, expect, request } from "@playwright/test";
import { baseURL } from "./admin";
import { invitationPathFor } from "./outbox";
import { adminApi, callAsAdmin } from "./waiver-bundle";

const connectHeaders = {
  "Content-Type": "application/json",
  "Connect-Protocol-Version": "1",
  Origin: baseURL,
};

/**
 * A member with a password, made through an invitation as a person would: of the Default tenant,
 * or of the active tenant of `inviter` (an administrator's signed-in request context).
 */
export async function newMember(
  what: string,
  password: string,
  inviter?: APIRequestContext,
): Promise<string> {
  const email = `${what}-${Date.now()}@palisade.test`;
  const admin = inviter ?? (await adminApi());
  try {
    await callAsAdmin(admin, "palisade.team.v1.TeamService/InviteMember", { email, role: "ROLE_VIEWER" });
  } finally {
    if (!inviter) await admin.dispose();
  }
  const token = (await invitationPathFor(email)).split("/").pop();
  const anonymous = await request.newContext({ baseURL });
  try {
    const accepted = await anonymous.post("/palisade.team.v1.TeamService/AcceptInvitationWithNewAccount", {
      data: { token, name: `Pat ${what}`, password },
      headers: connectHeaders,
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);
  } finally {
    await anonymous.dispose();
  }
  return email;
}
