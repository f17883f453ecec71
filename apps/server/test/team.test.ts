import { toJsonString } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectError } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { ErrorDetailSchema } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  DeliveryStatus,
  InvitationTokenState,
  ListApiKeysResponseSchema,
  TeamService,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../src/modules/audit/audit-schema";
import { errorOf } from "./support/call-error";
import { outboxInvitationToken } from "./support/invitation-link";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

function sessionCookieOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function fieldsOf(error: ConnectError): { field: string; message: string }[] {
  return error
    .findDetails(ErrorDetailSchema)
    .flatMap((detail) => detail.fieldViolations.map(({ field, message }) => ({ field, message })));
}

describe.each(engines)("team management on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine);
    const added = await server.addMember({ role: "ADMINISTRATOR", name: "Alice Admin" });
    admin = added.credentials;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists the tenant's members page by page, newest first, and searches them", async () => {
    for (const name of ["Bob Builder", "Carol Danvers", "Dan Brown"])
      await server.addMember({ role: "VIEWER", name });
    const team = server.client(TeamService, admin);
    const first = await team.listMembers({ pagination: { position: { case: "page", value: 1 }, limit: 2 } });
    expect(first.items.map((m) => m.name)).toEqual(["Dan Brown", "Carol Danvers"]);
    expect(first.pagination?.totalItems).toBe(5);
    expect(first.pagination?.position).toEqual({ case: "totalPages", value: 3 });
    const found = await team.listMembers({ search: "danv" });
    expect(found.items.map((m) => m.name)).toEqual(["Carol Danvers"]);
  });

  it("shows when each member last signed in, and how they can sign in", async () => {
    const before = Date.now();
    await server.addMember({ role: "VIEWER", name: "Erin Signin" });
    const { items } = await server.client(TeamService, admin).listMembers({ search: "Erin Signin" });
    expect(items[0]?.signInMethods).toEqual(["password"]);
    const last = items[0]?.lastSignInAt;
    expect(last && timestampDate(last).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("changes a member's role and records who did it", async () => {
    const { memberId, credentials } = await server.addMember({ role: "VIEWER" });
    const changed = await server.client(TeamService, admin).changeRole({ memberId, role: Role.EDITOR });
    expect(changed.member?.role).toBe(Role.EDITOR);
    expect((await server.client(TenantService, credentials).getCurrent({})).role).toBe(Role.EDITOR);
    const entries = await server.palisade.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "TeamService.ChangeRole"), eq(auditLog.targetId, memberId)));
    expect(entries).toHaveLength(1);
    expect(entries[0]?.actorName).toBe("Alice Admin");
    expect(entries[0]?.before).toEqual({ role: "VIEWER" });
    expect(entries[0]?.after).toEqual({ role: "EDITOR" });
  });

  it("answers not_found for another tenant's member", async () => {
    const otherTenant = await server.createTenant("Other");
    const stranger = await server.addMember({ role: "VIEWER", tenantId: otherTenant });
    const team = server.client(TeamService, admin);
    expect(
      (await errorOf(team.changeRole({ memberId: stranger.memberId, role: Role.ADMINISTRATOR }))).code,
    ).toBe(Code.NotFound);
    expect((await errorOf(team.removeMember({ memberId: stranger.memberId }))).code).toBe(Code.NotFound);
    // And the stranger's own tenant is untouched.
    expect((await server.client(TenantService, stranger.credentials).getCurrent({})).role).toBe(Role.VIEWER);
  });

  it("keeps at least one administrator", async () => {
    const otherTenant = await server.createTenant("Solo");
    const solo = await server.addMember({ role: "ADMINISTRATOR", tenantId: otherTenant });
    const error = await errorOf(
      server.client(TeamService, solo.credentials).changeRole({ memberId: solo.memberId, role: Role.VIEWER }),
    );
    expect(error.code).toBe(Code.FailedPrecondition);
    expect(error.rawMessage).toMatch(/last administrator/);
  });

  it("removes a member, who then has no access", async () => {
    const { memberId, credentials } = await server.addMember({ role: "VIEWER" });
    await server.client(TeamService, admin).removeMember({ memberId });
    expect((await errorOf(server.client(TenantService, credentials).getCurrent({}))).code).toBe(
      Code.PermissionDenied,
    );
  });

  it("invites by e-mail; the invitee joins with the role through the link's token", async () => {
    const team = server.client(TeamService, admin);
    const { invitation } = await team.inviteMember({ email: "New.Person@Example.com", role: Role.MODERATOR });
    expect(invitation?.email).toBe("new.person@example.com");
    expect((await team.listInvitations({})).invitations.map((i) => i.email)).toContain(
      "new.person@example.com",
    );
    expect((await errorOf(team.inviteMember({ email: "not-an-email", role: Role.VIEWER }))).rawMessage).toBe(
      '"not-an-email" is not a valid email',
    );

    const token = await outboxInvitationToken(server.dataDir, "new.person@example.com");
    let cookie = "";
    await server
      .client(TeamService)
      .acceptInvitationWithNewAccount(
        { token, name: "New Person", password: "a-long-password-1" },
        { onHeader: (headers) => (cookie = sessionCookieOf(headers)) },
      );
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.tenant?.id).toBe(server.defaultTenantId);
    expect(current.role).toBe(Role.MODERATOR);
    expect((await team.listInvitations({})).invitations.map((i) => i.email)).not.toContain(
      "new.person@example.com",
    );
  });

  it("revokes a pending invitation", async () => {
    const team = server.client(TeamService, admin);
    const { invitation } = await team.inviteMember({ email: "revoked@example.com", role: Role.VIEWER });
    await team.revokeInvitation({ id: invitation?.id ?? "" });
    expect((await team.listInvitations({})).invitations.map((i) => i.email)).not.toContain(
      "revoked@example.com",
    );
    expect((await errorOf(team.revokeInvitation({ id: invitation?.id ?? "" }))).code).toBe(Code.NotFound);
  });

  it("resends an invitation with a new link; the old link no longer works", async () => {
    const team = server.client(TeamService, admin);
    const { invitation } = await team.inviteMember({ email: "resent@example.com", role: Role.EDITOR });
    const id = invitation?.id ?? "";
    const oldToken = await outboxInvitationToken(server.dataDir, "resent@example.com");

    const resent = await team.resendInvitation({ id });
    expect(resent.invitation?.email).toBe("resent@example.com");
    expect(resent.invitation?.role).toBe(Role.EDITOR);
    expect(resent.invitation?.deliveryStatus).toBe(DeliveryStatus.PENDING);
    let newToken = oldToken;
    for (let tries = 0; newToken === oldToken && tries < 75; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      newToken = await outboxInvitationToken(server.dataDir, "resent@example.com");
    }
    expect(newToken).not.toBe(oldToken);

    const publicTeam = server.client(TeamService);
    expect((await publicTeam.getInvitationByToken({ token: oldToken })).state).toBe(
      InvitationTokenState.UNKNOWN,
    );
    expect(
      (
        await errorOf(
          publicTeam.acceptInvitationWithNewAccount({
            token: oldToken,
            name: "Old",
            password: "a-long-password-1",
          }),
        )
      ).code,
    ).toBe(Code.NotFound);
    await publicTeam.acceptInvitationWithNewAccount({
      token: newToken,
      name: "Resent",
      password: "a-long-password-1",
    });
    expect((await team.listMembers({})).items.find((m) => m.email === "resent@example.com")?.role).toBe(
      Role.EDITOR,
    );
    expect((await errorOf(team.resendInvitation({ id }))).code).toBe(Code.NotFound);
    expect((await errorOf(team.resendInvitation({ id: "" }))).code).toBe(Code.NotFound);
  });

  it("creates an API key shown once, lists it without the secret, and revokes it", async () => {
    const team = server.client(TeamService, admin);
    const created = await team.createApiKey({ name: "CI pipeline", role: Role.VIEWER, expiresInDays: 30 });
    expect(created.key).toMatch(/^pal_/);
    expect(created.apiKey?.role).toBe(Role.VIEWER);
    const listed = await team.listApiKeys({});
    const entry = listed.items.find((k) => k.id === created.apiKey?.id);
    expect(entry?.name).toBe("CI pipeline");
    expect(toJsonString(ListApiKeysResponseSchema, listed)).not.toContain(created.key.slice(8));

    const asKey = server.client(TenantService, { kind: "bearer", token: created.key });
    expect((await asKey.getCurrent({})).role).toBe(Role.VIEWER);
    await team.revokeApiKey({ id: created.apiKey?.id ?? "" });
    expect((await errorOf(asKey.getCurrent({}))).code).toBe(Code.Unauthenticated);
  });

  it("validates API key input", async () => {
    const team = server.client(TeamService, admin);
    expect((await errorOf(team.createApiKey({ name: " ", role: Role.VIEWER }))).code).toBe(
      Code.InvalidArgument,
    );
    expect((await errorOf(team.createApiKey({ name: "x", role: Role.UNSPECIFIED }))).code).toBe(
      Code.InvalidArgument,
    );
    expect(
      (await errorOf(team.createApiKey({ name: "x", role: Role.VIEWER, expiresInDays: 400 }))).code,
    ).toBe(Code.InvalidArgument);
  });

  it("names the input field at fault in the error's details, with the message unchanged", async () => {
    const badName = await errorOf(
      server.client(TeamService, admin).createApiKey({ name: " ", role: Role.VIEWER }),
    );
    expect(badName.rawMessage).toBe("API key name must not be empty.");
    expect(fieldsOf(badName)).toEqual([{ field: "name", message: "API key name must not be empty." }]);

    const badHours = await errorOf(
      server.client(TenantService, admin).updateSettings({
        settings: { maxWaiverDurationHours: 100, defaultWaiverApprovalMode: WaiverApprovalMode.AUTO },
      }),
    );
    expect(badHours.code).toBe(Code.InvalidArgument);
    // The ceiling is declared in the contract; the validation interceptor names field and rule.
    expect(badHours.rawMessage).toBe(
      "settings.max_waiver_duration_hours: must be less than or equal to 72 [int32.lte]",
    );
    expect(fieldsOf(badHours)).toEqual([
      {
        field: "settings.max_waiver_duration_hours",
        message: "must be less than or equal to 72 [int32.lte]",
      },
    ]);
  });
});
