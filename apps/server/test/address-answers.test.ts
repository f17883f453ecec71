import { randomBytes } from "node:crypto";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { waitFor } from "./support/poll";
import { type SmtpTestServer, startSmtpTestServer } from "./support/smtp-test-server";
import { startTestServer, type TestServer } from "./support/test-server";

const DOMAIN = "requesters.example";

/**
 * Every endpoint that takes an address answers an address with an account exactly as one
 * without: the same status and the same body (values that are new on every call, such as the
 * enchanted link's request reference, compared by their shape). Their timing is measured by
 * `bench/address-timing`.
 */
describe("answers to an address with and without an account", () => {
  let server: TestServer;
  let smtp: SmtpTestServer;
  let key = "";
  let clientCounter = 0;
  let accountCounter = 0;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer("pglite", { SMTP_URL: smtp.url, TRUST_PROXY: "true" });
    const admin = await server.addMember({ role: "ADMINISTRATOR" });
    await server.client(TenantService, admin.credentials).updateSettings({
      settings: {
        maxWaiverDurationHours: 72,
        defaultWaiverApprovalMode: WaiverApprovalMode.AUTO,
        waiverRequesterDomains: [DOMAIN],
      },
    });
    key = generatePolicyKey((n) => randomBytes(n));
    await server.palisade.database.db.insert(bundles).values({
      tenantId: server.defaultTenantId,
      key,
      name: "Keep S3 private",
      policySlug: "aws-s3-deny-public-access-change",
      provider: "AWS",
      mode: "PREVENT",
      status: "DEPLOYED",
      scopes: [{ id: "111122223333" }],
      waiverApprovalMode: "AUTO",
      createdBy: "seed",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  /** A verified account with a confirmed phone number and no authenticator app. */
  async function account(): Promise<string> {
    accountCounter += 1;
    const member = await server.addMember({ role: "VIEWER", email: `known-${accountCounter}@${DOMAIN}` });
    await server.palisade.database.db
      .update(user)
      .set({ phoneNumber: `+1555000${String(accountCounter).padStart(4, "0")}`, phoneNumberVerified: true })
      .where(eq(user.id, member.userId));
    return member.email;
  }

  async function call(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    clientCounter += 1;
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        "x-forwarded-for": `198.18.0.${clientCounter}`,
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** Values new on every call, by their shape. */
  const shapeOf = (body: unknown) =>
    JSON.parse(JSON.stringify(body), (_k, v) =>
      typeof v === "string" ? "string" : typeof v === "number" ? "number" : v,
    );

  it.each([
    [
      "/api/auth/request-password-reset",
      (email: string) => ({ email, redirectTo: "/reset-password" }),
      false,
    ],
    ["/api/auth/sign-in/magic-link", (email: string) => ({ email }), false],
    ["/api/auth/email-otp/send-verification-otp", (email: string) => ({ email, type: "sign-in" }), false],
    ["/api/auth/whatsapp-link/send", (email: string) => ({ email }), false],
    ["/api/auth/enchanted-link/send", (email: string) => ({ email }), true],
    [
      "/api/auth/sign-in/email",
      (email: string) => ({ email, password: "not the password of anyone" }),
      false,
    ],
    [
      "/palisade.team.v1.TeamService/SendRequesterCode",
      (email: string) => ({ email, policyKey: key }),
      false,
    ],
    [
      "/palisade.team.v1.TeamService/SignInRequester",
      (email: string) => ({ email, policyKey: key, code: "000000" }),
      false,
    ],
  ] as const)("%s", async (path, body, fresh) => {
    const known = await call(path, body(await account()));
    const unknown = await call(path, body(`nobody-${accountCounter}@${DOMAIN}`));
    expect(unknown.status).toBe(known.status);
    expect(known.status).toBeLessThan(500);
    expect(fresh ? shapeOf(unknown.body) : unknown.body).toEqual(fresh ? shapeOf(known.body) : known.body);
  });

  it("still sends the mail to the address with an account, after the answer", async () => {
    const email = await account();
    expect((await call("/api/auth/enchanted-link/send", { email })).status).toBe(200);
    const mail = await waitFor("the enchanted link", async () =>
      smtp.received.find((m) => m.recipients.includes(email)),
    );
    expect(mail.parsed.text).toContain("enchanted-link");
  });
});
