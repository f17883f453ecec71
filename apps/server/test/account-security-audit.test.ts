import { AuditService } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

describe.each(engines)("an account's security changes in the audit log on %s", (engine) => {
  let server: TestServer;
  let admin: Credentials;
  let otherTenantAdmin: Credentials;

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = (await server.addMember({ role: "ADMINISTRATOR", name: "Audit Admin" })).credentials;
    const other = await server.createTenant("Second tenant");
    otherTenantAdmin = (await server.addMember({ role: "ADMINISTRATOR", tenantId: other })).credentials;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function changePassword(token: string, currentPassword: string, newPassword: string) {
    return fetch(`${server.url}/api/auth/change-password`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        authorization: `Bearer ${token}`,
        "user-agent": "audit-test/1.0",
      },
      body: JSON.stringify({ currentPassword, newPassword }),
    });
  }

  async function records(credentials: Credentials) {
    const { items } = await server
      .client(AuditService, credentials)
      .list({ filter: { action: "Account.ChangePassword" } });
    return items;
  }

  it("records a member's password change, by the member, in their tenant only; a refused change leaves none", async () => {
    const member = await server.addMember({ role: "EDITOR", name: "Erin Editor" });
    const token = member.credentials.kind === "bearer" ? member.credentials.token : "";

    const refused = await changePassword(token, "not-the-password", "Another-password-1");
    expect(refused.status).toBe(400);
    expect(await records(admin)).toHaveLength(0);

    const changed = await changePassword(token, member.password, "Another-password-1");
    expect(changed.status).toBe(200);
    const [record, ...more] = await records(admin);
    expect(more).toHaveLength(0);
    expect(record).toMatchObject({
      action: "Account.ChangePassword",
      actor: { name: "Erin Editor", id: member.userId },
      target: { type: "account", id: member.userId, name: member.email },
      userAgent: "audit-test/1.0",
    });
    // The change is of an account of this tenant, not of the other tenant's.
    expect(await records(otherTenantAdmin)).toHaveLength(0);
  });
});
