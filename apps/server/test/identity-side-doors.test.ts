import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { membershipOpenPaths } from "../src/auth/membership-doors";
import { member } from "../src/db/schema/auth";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

/**
 * Membership, roles, invitations, tenants and API keys change through Palisade's methods only.
 * The identity layer's own endpoints for them are walked from the identity layer itself, so an
 * endpoint a new version adds is closed or this test fails.
 */
describe("the identity layer's membership endpoints", () => {
  let server: TestServer;
  let tenantId: string;
  let admin: { credentials: Credentials; memberId: string };
  let invitee: { credentials: Credentials; userId: string; email: string };

  beforeAll(async () => {
    server = await startTestServer("pglite");
    tenantId = await server.createTenant("Side Doors");
    admin = await server.addMember({ role: "ADMINISTRATOR", tenantId });
    // An existing, verified user of another tenant, invited to this one.
    invitee = await server.addMember({ role: "VIEWER" });
    await server
      .client(TeamService, admin.credentials)
      .inviteMember({ email: invitee.email, role: Role.ADMINISTRATOR });
  });
  afterAll(async () => {
    await server?.stop();
  });

  function bearer(credentials: Credentials): Record<string, string> {
    return credentials.kind === "bearer" ? { authorization: `Bearer ${credentials.token}` } : {};
  }

  async function call(path: string, credentials: Credentials, body: unknown = {}) {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...bearer(credentials) },
      body: JSON.stringify(body),
    });
  }

  it("every membership, invitation, tenant and API key endpoint but choosing and listing one's tenants answers 404", async () => {
    const paths = Object.values(server.palisade.auth.api as Record<string, { path?: string }>)
      .map((endpoint) => endpoint.path)
      .filter((path): path is string => !!path && /^\/(organization|api-key)\//.test(path));
    expect(paths.length).toBeGreaterThan(20);
    const open: string[] = [];
    for (const path of paths) {
      if (membershipOpenPaths.includes(path)) continue;
      const response = await call(path, admin.credentials, { organizationId: tenantId });
      if (response.status !== 404) open.push(`${path}: ${response.status}`);
    }
    expect(open).toEqual([]);
  });

  it("an invited user cannot find or accept the invitation by its id, and stays outside the tenant", async () => {
    expect((await call("/organization/list-user-invitations", invitee.credentials)).status).toBe(404);
    const pending = (
      await server.client(TeamService, admin.credentials).listInvitations({})
    ).invitations.find((i) => i.email === invitee.email);
    expect(pending).toBeDefined();
    const accepted = await call("/organization/accept-invitation", invitee.credentials, {
      invitationId: pending?.id,
    });
    expect(accepted.status).toBe(404);
    const memberships = await server.palisade.database.db
      .select()
      .from(member)
      .where(and(eq(member.organizationId, tenantId), eq(member.userId, invitee.userId)));
    expect(memberships).toEqual([]);
  });

  it("an administrator cannot make a member owner, or invite, around Palisade's methods", async () => {
    const promoted = await call("/organization/update-member-role", admin.credentials, {
      memberId: admin.memberId,
      role: "owner",
      organizationId: tenantId,
    });
    expect(promoted.status).toBe(404);
    const [row] = await server.palisade.database.db
      .select()
      .from(member)
      .where(eq(member.id, admin.memberId));
    expect(row?.role).toBe("ADMINISTRATOR");
    const invited = await call("/organization/invite-member", admin.credentials, {
      email: "mallory@example.com",
      role: "ADMINISTRATOR",
      organizationId: tenantId,
    });
    expect(invited.status).toBe(404);
  });

  it("choosing the active tenant among one's own still works", async () => {
    const response = await call("/organization/set-active", admin.credentials, { organizationId: tenantId });
    expect(response.status).toBe(200);
  });
});
