import { randomBytes } from "node:crypto";
import type { DescService } from "@bufbuild/protobuf";
import { Code, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { DeploymentManagerService as DeploymentService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { TeamService } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode, WaiverApprovalType } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { member } from "../src/modules/tenant/organization-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { errorOf } from "./support/call-error";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { engines } from "./support/test-database";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "./support/test-server";

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

let clientCounter = 0;

describe.each(engines)("tenants and the requester path on %s", (engine) => {
  let smtp: SmtpTestServer;
  let server: TestServer;
  let adminCookie: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer(engine, { SMTP_URL: smtp.url, TRUST_PROXY: "true" });
    adminCookie = cookieOf(await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  const db = () => server.palisade.database.db;
  const asAdmin = (): Credentials => ({ kind: "cookie", cookie: adminCookie });

  /** A client presenting its own address (the server trusts X-Forwarded-For here), without credentials. */
  function anonymous<S extends DescService>(service: S, clientAddress: string, cookie?: string) {
    const headers: Interceptor = (next) => (req) => {
      req.header.set("x-forwarded-for", clientAddress);
      if (cookie) {
        req.header.set("cookie", cookie);
        req.header.set("origin", server.url);
      }
      return next(req);
    };
    return createClient(
      service,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", interceptors: [headers] }),
    );
  }

  function newClientAddress(): string {
    clientCounter += 1;
    return `203.0.113.${clientCounter + (engine === "pglite" ? 0 : 120)}`;
  }

  /** A deployed AUTO or MANUAL bundle of the tenant, as the deployment engine stores one. */
  async function seedBundle(tenantId: string, name: string, approval: "AUTO" | "MANUAL" = "AUTO") {
    const scope = {
      externalId: "111122223333",
      name: "Account 111122223333",
      type: "AWS_ACCOUNT",
      provider: "aws",
      connectorId: "",
    };
    const key = generatePolicyKey((n) => randomBytes(n));
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId,
        key,
        name,
        policySlug: "aws-s3-deny-public-access-change",
        provider: "AWS",
        mode: "PREVENT",
        status: "DEPLOYED",
        scopes: [scope],
        waiverApprovalMode: approval,
        createdBy: "seed",
      })
      .returning();
    if (!bundle) throw new Error("no bundle");
    await db().insert(deployments).values({
      tenantId,
      bundleId: bundle.id,
      key,
      scope,
      scopeExternalId: "111122223333",
      mode: "PREVENT",
      status: "DEPLOYED",
      policySlug: bundle.policySlug,
      name,
      createdBy: "seed",
    });
    return { id: bundle.id, key };
  }

  async function setActive(cookie: string, organizationId: string): Promise<void> {
    const response = await fetch(`${server.url}/api/auth/organization/set-active`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      body: JSON.stringify({ organizationId }),
    });
    expect(response.status).toBe(200);
  }

  describe("tenants", () => {
    let secondTenantId = "";

    it("makes the bootstrap administrator an instance administrator, who creates a tenant and administers it", async () => {
      const tenants = server.client(TenantService, asAdmin());
      const current = await tenants.getCurrent({});
      expect(current.user?.instanceAdmin).toBe(true);

      const bad = await errorOf(tenants.createTenant({ name: "  " }));
      expect(bad.code).toBe(Code.InvalidArgument);
      expect(bad.rawMessage).toBe("Tenant name must be 1 to 100 characters.");
      expect((await errorOf(tenants.createTenant({ name: "x".repeat(101) }))).code).toBe(
        Code.InvalidArgument,
      );

      const { tenant } = await tenants.createTenant({ name: " Payments Platform " });
      expect(tenant?.name).toBe("Payments Platform");
      secondTenantId = tenant?.id ?? "";
      const [membership] = await db()
        .select()
        .from(member)
        .where(and(eq(member.organizationId, secondTenantId), eq(member.userId, current.user?.id ?? "")));
      expect(membership?.role).toBe("ADMINISTRATOR");
      // Still working in the first tenant, now with two to choose from.
      const after = await tenants.getCurrent({});
      expect(after.tenant?.id).toBe(server.defaultTenantId);
      expect(after.tenants.map((t) => t.name).sort()).toEqual(["Default", "Payments Platform"]);
    });

    it("refuses tenant creation to everyone but instance administrators, and lets one promote a member", async () => {
      const other = await server.addMember({ role: "ADMINISTRATOR", name: "Tenant Admin" });
      const refused = await errorOf(
        server.client(TenantService, other.credentials).createTenant({ name: "Mine" }),
      );
      expect(refused.code).toBe(Code.PermissionDenied);
      expect(refused.rawMessage).toMatch(/^Only an instance administrator can create tenants/);
      // Nor may a tenant administrator promote themselves.
      const self = await errorOf(
        server
          .client(TeamService, other.credentials)
          .setInstanceAdmin({ memberId: other.memberId, instanceAdmin: true }),
      );
      expect(self.code).toBe(Code.PermissionDenied);
      const apiKey = await server.createApiKey({ tenantId: server.defaultTenantId, role: "ADMINISTRATOR" });
      expect(
        (
          await errorOf(
            server.client(TenantService, { kind: "bearer", token: apiKey }).createTenant({ name: "K" }),
          )
        ).code,
      ).toBe(Code.PermissionDenied);

      const { member: promoted } = await server
        .client(TeamService, asAdmin())
        .setInstanceAdmin({ memberId: other.memberId, instanceAdmin: true });
      expect(promoted?.instanceAdmin).toBe(true);
      const listed = await server.client(TeamService, asAdmin()).listMembers({ search: "Tenant Admin" });
      expect(listed.items[0]?.instanceAdmin).toBe(true);
      const { tenant } = await server
        .client(TenantService, other.credentials)
        .createTenant({ name: "Theirs" });
      expect(tenant?.name).toBe("Theirs");

      const adminMember = (await server.client(TeamService, asAdmin()).listMembers({ search: ADMIN_EMAIL }))
        .items[0];
      const demoteSelf = await errorOf(
        server
          .client(TeamService, asAdmin())
          .setInstanceAdmin({ memberId: adminMember?.id ?? "", instanceAdmin: false }),
      );
      expect(demoteSelf.code).toBe(Code.FailedPrecondition);
    });

    it("switches tenants: every query answers for the active tenant, and the choice outlives the session", async () => {
      const [adminUser] = await db().select().from(user).where(eq(user.email, ADMIN_EMAIL));
      const inB = await seedBundle(secondTenantId, "Only in Payments");
      const inA = await seedBundle(server.defaultTenantId, "Only in Default");

      const cookie = cookieOf(await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
      const as: Credentials = { kind: "cookie", cookie };
      const bundleNames = async () =>
        (await server.client(DeploymentService, as).listBundle({})).items.map((b) => b.bundle?.name);

      expect(await bundleNames()).toContain("Only in Default");
      expect(await bundleNames()).not.toContain("Only in Payments");

      await setActive(cookie, secondTenantId);
      const current = await server.client(TenantService, as).getCurrent({});
      expect(current.tenant?.id).toBe(secondTenantId);
      expect(current.role).toBe(Role.ADMINISTRATOR);
      expect(await bundleNames()).toEqual(["Only in Payments"]);
      expect(
        (
          await errorOf(
            server.client(DeploymentService, as).getBundle({ lookup: { case: "id", value: inA.id } }),
          )
        ).code,
      ).toBe(Code.NotFound);
      expect(
        (await server.client(DeploymentService, as).getBundle({ lookup: { case: "id", value: inB.id } }))
          .bundle?.bundle?.name,
      ).toBe("Only in Payments");

      // Writes land in the active tenant too: a key and a rename made in B are not A's.
      const created = await server
        .client(TeamService, as)
        .createApiKey({ name: "payments ci", role: Role.VIEWER });
      await server.client(TenantService, as).updateSettings({ name: "Payments" });
      const members = await server.client(TeamService, as).listMembers({});
      expect(members.items.map((m) => m.email)).toEqual([ADMIN_EMAIL]);

      // A new sign-in starts in the tenant chosen last.
      const again = cookieOf(await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
      const next = await server.client(TenantService, { kind: "cookie", cookie: again }).getCurrent({});
      expect(next.tenant?.name).toBe("Payments");

      await setActive(cookie, server.defaultTenantId);
      const keysInA = await server.client(TeamService, as).listApiKeys({});
      expect(keysInA.items.map((k) => k.id)).not.toContain(created.apiKey?.id);
      expect((await server.client(TenantService, as).getCurrent({})).tenant?.name).toBe("Default");
      expect(await bundleNames()).not.toContain("Only in Payments");
      expect(adminUser?.instanceAdmin).toBe(true);
    });

    it("cannot switch to a tenant the user does not belong to", async () => {
      const outsider = await server.createTenant("Outsider");
      const cookie = cookieOf(await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD));
      const response = await fetch(`${server.url}/api/auth/organization/set-active`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url, cookie },
        body: JSON.stringify({ organizationId: outsider }),
      });
      expect(response.status).toBe(403);
      const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
      expect(current.tenant?.id).not.toBe(outsider);
    });
  });

  describe("waiver requester domains", () => {
    let key = "";

    beforeAll(async () => {
      const tenants = server.client(TenantService, asAdmin());
      await setActive(adminCookie, server.defaultTenantId);
      const bad = await errorOf(
        tenants.updateSettings({
          settings: {
            maxWaiverDurationHours: 72,
            defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
            waiverRequesterDomains: ["requesters.example", "*.example.org"],
          },
        }),
      );
      expect(bad.code).toBe(Code.InvalidArgument);
      expect(bad.rawMessage).toBe(
        '"*.example.org" is not an e-mail domain; write it like example.com, without a user name or wildcard.',
      );
      const { tenant } = await tenants.updateSettings({
        settings: {
          maxWaiverDurationHours: 72,
          defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
          waiverRequesterDomains: [" Requesters.Example ", "@corp.example", "requesters.example"],
        },
      });
      expect(tenant?.settings?.waiverRequesterDomains).toEqual(["requesters.example", "corp.example"]);
      key = (await seedBundle(server.defaultTenantId, "Keep S3 private")).key;
    });

    async function codeFor(email: string, clientAddress: string): Promise<string> {
      const before = smtp.received.filter((m) => m.recipients.includes(email)).length;
      await anonymous(TeamService, clientAddress).sendRequesterCode({ email, policyKey: key.toLowerCase() });
      const deadline = Date.now() + 15_000;
      for (;;) {
        const mails = smtp.received.filter((m) => m.recipients.includes(email));
        if (mails.length > before) {
          const text = mails.at(-1)?.parsed.text ?? "";
          expect(text).toContain("Enter it on the waiver request page");
          const code = text.match(/^(\d{6})$/m)?.[1];
          if (!code) throw new Error(`no code in ${text}`);
          return code;
        }
        if (Date.now() > deadline) throw new Error(`no code arrived for ${email}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    it("joins a new address of a requester domain as VISITOR; its AUTO waiver is active at once", async () => {
      const client = newClientAddress();
      const email = `ana-${engine}@requesters.example`;
      const code = await codeFor(email, client);

      const wrong = await errorOf(
        anonymous(TeamService, client).signInRequester({
          email,
          policyKey: key,
          code: code === "000000" ? "111111" : "000000",
        }),
      );
      expect(wrong.code).toBe(Code.InvalidArgument);
      expect(wrong.rawMessage).toMatch(/^The code is not right/);
      // A refused code leaves no account behind.
      expect(await db().select().from(user).where(eq(user.email, email))).toEqual([]);

      const response = await fetch(`${server.url}/palisade.team.v1.TeamService/SignInRequester`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": client, origin: server.url },
        body: JSON.stringify({ email: email.toUpperCase(), policyKey: key, code }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ joined: true });
      const cookie = cookieOf(response);
      expect(cookie).toContain("palisade.session_token=");

      const [account] = await db().select().from(user).where(eq(user.email, email));
      expect(account?.emailVerified).toBe(true);
      const { waiver } = await anonymous(WaiverService, client, cookie).create({
        key,
        duration: 3_600n,
        comment: "restore the nightly export",
      });
      expect(waiver?.approvalType).toBe(WaiverApprovalType.AUTO);
      expect(waiver?.requester?.identifier).toBe(email);
      // Active at once; the answer says so only once a cloud has it, and this bundle has no connector.
      const [row] = await db()
        .select()
        .from(waivers)
        .where(eq(waivers.id, waiver?.entity?.id ?? ""));
      expect(row?.status).toBe("ACTIVE");

      // The administrators see the new visitor on the Team members page.
      const listed = await server.client(TeamService, asAdmin()).listMembers({ search: email });
      expect(listed.items.map((m) => [m.email, m.role])).toEqual([[email, Role.VISITOR]]);

      // The code is spent; a second sign-in with a new code does not join again.
      const again = await codeFor(email, newClientAddress());
      const second = await anonymous(TeamService, newClientAddress()).signInRequester({
        email,
        policyKey: key,
        code: again,
      });
      expect(second.joined).toBe(false);
    });

    it("refuses an address outside the requester domains and says whom to ask", async () => {
      const before = smtp.received.length;
      const refused = await errorOf(
        anonymous(TeamService, newClientAddress()).sendRequesterCode({
          email: "bob@elsewhere.example",
          policyKey: key,
        }),
      );
      expect(refused.code).toBe(Code.PermissionDenied);
      expect(refused.rawMessage).toBe(
        "Addresses at elsewhere.example cannot request waivers in Default on their own. Ask an administrator of Default to invite you, or sign in if you already have an account there.",
      );
      // A subdomain is not the domain.
      expect(
        (
          await errorOf(
            anonymous(TeamService, newClientAddress()).sendRequesterCode({
              email: "bob@eu.requesters.example",
              policyKey: key,
            }),
          )
        ).code,
      ).toBe(Code.PermissionDenied);
      const invalid = await errorOf(
        anonymous(TeamService, newClientAddress()).sendRequesterCode({
          email: "not-an-address",
          policyKey: key,
        }),
      );
      expect(invalid.rawMessage).toBe('"not-an-address" is not a valid email');
      const unknownKey = await errorOf(
        anonymous(TeamService, newClientAddress()).sendRequesterCode({
          email: "ana@requesters.example",
          policyKey: "ZZZZZZZ",
        }),
      );
      expect(unknownKey.code).toBe(Code.NotFound);
      // Even a code for the address would not help: signing in re-checks the domain.
      const signIn = await errorOf(
        anonymous(TeamService, newClientAddress()).signInRequester({
          email: "bob@elsewhere.example",
          policyKey: key,
          code: "123456",
        }),
      );
      expect(signIn.code).toBe(Code.PermissionDenied);
      expect(smtp.received.length).toBe(before);
      expect(await db().select().from(user).where(eq(user.email, "bob@elsewhere.example"))).toEqual([]);
    });

    it("limits codes per e-mail address and per client address", async () => {
      const email = `cap-${engine}@requesters.example`;
      for (let i = 0; i < 3; i++) {
        await anonymous(TeamService, newClientAddress()).sendRequesterCode({ email, policyKey: key });
      }
      const perEmail = await errorOf(
        anonymous(TeamService, newClientAddress()).sendRequesterCode({ email, policyKey: key }),
      );
      expect(perEmail.code).toBe(Code.ResourceExhausted);
      expect(perEmail.rawMessage).toMatch(
        new RegExp(`^Too many codes sent to ${email}\\. Try again in \\d+ seconds\\.$`),
      );

      const client = newClientAddress();
      for (let i = 0; i < 10; i++) {
        const error = await errorOf(
          anonymous(TeamService, client).sendRequesterCode({
            email: `x${i}@elsewhere.example`,
            policyKey: key,
          }),
        );
        expect(error.code).toBe(Code.PermissionDenied);
      }
      const perClient = await errorOf(
        anonymous(TeamService, client).sendRequesterCode({
          email: `y-${engine}@requesters.example`,
          policyKey: key,
        }),
      );
      expect(perClient.code).toBe(Code.ResourceExhausted);
      expect(perClient.rawMessage).toMatch(/^Too many code requests from this address/);
    });
  });
});
