import { Code, ConnectError } from "@connectrpc/connect";
import { AccountService, SignInMethod } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { SsoProtocol, SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { member } from "../src/modules/tenant/organization-schema";
import { findTenantSettings, saveTenantSettings } from "../src/modules/tenant/tenant-repository";
import { type BrowserAgent, createBrowserAgent, pageClient } from "./support/browser-agent";
import { type OidcTestProvider, startOidcTestProvider } from "./support/oidc-test-provider";
import { identityFlowEngines } from "./support/test-database";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "./support/test-server";

const DOMAIN = "corp-sso.test";
/** Palisade's public address; the test's browser reaches it through a proxy (createBrowserAgent). */
const PUBLIC_URL = "https://palisade-sso.test";
const SSO_CLIENT = { clientId: "palisade-sso", clientSecret: "sso-client-secret-0123456789" };
const SOCIAL_CLIENT = { clientId: "palisade-social", clientSecret: "social-client-secret-0123456789" };

describe.each(identityFlowEngines)(
  "single sign-on and generic OpenID Connect against oidc-provider on %s",
  (engine) => {
    let idp: OidcTestProvider;
    let server: TestServer;
    let tenantId: string;
    let tenantAdmin: Credentials;
    let instanceAdmin: Credentials;

    beforeAll(async () => {
      idp = await startOidcTestProvider();
      server = await startTestServer(engine, {
        PUBLIC_URL,
        SSO_TRUSTED_ORIGINS: idp.issuer,
        AUTH_OIDC_ISSUER: idp.issuer,
        AUTH_OIDC_CLIENT_ID: SOCIAL_CLIENT.clientId,
        AUTH_OIDC_CLIENT_SECRET: SOCIAL_CLIENT.clientSecret,
        AUTH_OIDC_NAME: "Corporate ID",
      });
      tenantId = await server.createTenant("Corp");
      tenantAdmin = (await server.addMember({ role: "ADMINISTRATOR", tenantId })).credentials;
      const signIn = await server.palisade.auth.api.signInEmail({
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      instanceAdmin = { kind: "bearer", token: signIn.token };
      idp.addClient({
        ...SSO_CLIENT,
        redirectUris: [`${PUBLIC_URL}/api/auth/sso/callback/tenant-${tenantId}`],
      });
      idp.addClient({ ...SOCIAL_CLIENT, redirectUris: [`${PUBLIC_URL}/api/auth/callback/oidc`] });
    });
    afterAll(async () => {
      await server?.stop();
      await idp?.stop();
    });

    const sso = (credentials: Credentials) => server.client(SsoService, credentials);
    const newBrowser = () => createBrowserAgent({ [PUBLIC_URL]: server.url });

    /** Palisade's RPCs from its own page, with the browser's session cookie. */
    const tenantsOf = (agent: BrowserAgent) => pageClient(agent, PUBLIC_URL, server.url, TenantService);
    const accountOf = (agent: BrowserAgent) => pageClient(agent, PUBLIC_URL, server.url, AccountService);

    /** Signs in at the identity provider's pages and returns the URL it sends the browser back to. */
    async function signInAtProvider(
      agent: BrowserAgent,
      authorizationUrl: string,
      login: string,
    ): Promise<string> {
      const backHome = (url: string) => url.startsWith(PUBLIC_URL);
      let { url, response } = await agent.follow(authorizationUrl, backHome);
      for (let step = 0; step < 4 && response; step += 1) {
        const html = await response.text();
        const action = html.match(/action="([^"]+)"/)?.[1];
        const prompt = html.match(/name="prompt" value="(\w+)"/)?.[1];
        if (!action || !prompt) throw new Error(`no sign-in form at ${url}: ${html.slice(0, 300)}`);
        const form: Record<string, string> =
          prompt === "login" ? { prompt, login, password: "any password" } : { prompt };
        const posted = await agent.request(new URL(action, url).toString(), { form });
        const location = posted.headers.get("location");
        if (!location) throw new Error(`the provider answered ${posted.status} to the ${prompt} form`);
        ({ url, response } = await agent.follow(new URL(location, url).toString(), backHome));
      }
      return url;
    }

    function post(path: string, body: unknown): Promise<Response> {
      return fetch(`${server.url}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: PUBLIC_URL },
        body: JSON.stringify(body),
      });
    }

    async function startSso(agent: BrowserAgent, email: string): Promise<Response> {
      return agent.request(`${PUBLIC_URL}/api/auth/sign-in/sso`, {
        json: { email, callbackURL: "/", errorCallbackURL: "/sign-in" },
        origin: PUBLIC_URL,
      });
    }

    /** The whole single sign-on of one address in a fresh browser: the callback URL and the browser. */
    async function signInWithSso(email: string) {
      const agent = newBrowser();
      const started = await startSso(agent, email);
      expect(started.status).toBe(200);
      const { url } = (await started.json()) as { url: string };
      expect(url.startsWith(idp.issuer)).toBe(true);
      const callback = await signInAtProvider(agent, url, email);
      expect(callback).toContain(`/api/auth/sso/callback/tenant-${tenantId}`);
      const landed = await agent.request(callback);
      return { agent, callback, landed };
    }

    it("a tenant administrator registers the provider; the secret is never returned", async () => {
      const saved = await sso(tenantAdmin).updateSettings({
        protocol: SsoProtocol.OIDC,
        oidc: { issuer: idp.issuer, ...SSO_CLIENT },
        domains: [DOMAIN, "unproved-sso.test"],
        defaultRole: Role.EDITOR,
        ssoRequired: false,
      });
      expect(saved.settings?.clientSecretSet).toBe(true);
      expect(saved.settings?.oidc?.clientSecret).toBe("");
      expect(JSON.stringify(saved)).not.toContain(SSO_CLIENT.clientSecret);
      expect(saved.settings?.redirectUrl).toBe(`${PUBLIC_URL}/api/auth/sso/callback/tenant-${tenantId}`);
      expect(saved.settings?.domains.map((d) => [d.domain, d.verified])).toEqual([
        [DOMAIN, false],
        ["unproved-sso.test", false],
      ]);
      const read = await sso(tenantAdmin).getSettings({});
      expect(JSON.stringify(read)).not.toContain(SSO_CLIENT.clientSecret);
    });

    it("an unverified domain is not used: no lookup, no sign-in", async () => {
      expect(await sso({ kind: "none" }).lookupDomain({ email: `a@${DOMAIN}` })).toMatchObject({
        sso: false,
      });
      const refused = await startSso(newBrowser(), `a@${DOMAIN}`);
      expect(refused.status).toBeGreaterThanOrEqual(400);
    });

    it("only an instance administrator verifies a domain by hand", async () => {
      const denied = await sso(tenantAdmin)
        .setDomainVerified({ tenantId, domain: DOMAIN, verified: true })
        .catch((e) => ConnectError.from(e));
      expect(denied).toBeInstanceOf(ConnectError);
      expect((denied as ConnectError).code).toBe(Code.PermissionDenied);
      const requests = await sso(instanceAdmin).listDomainRequests({});
      expect(requests.requests.map((r) => `${r.tenantName} ${r.domain?.domain}`)).toContain(`Corp ${DOMAIN}`);
      const verified = await sso(instanceAdmin).setDomainVerified({
        tenantId,
        domain: DOMAIN,
        verified: true,
      });
      expect(verified.domain).toMatchObject({ domain: DOMAIN, verified: true, verifiedBy: "instance-admin" });
      expect(await sso({ kind: "none" }).lookupDomain({ email: `someone@${DOMAIN}` })).toMatchObject({
        sso: true,
        required: false,
      });
      expect(await sso({ kind: "none" }).lookupDomain({ email: "someone@unproved-sso.test" })).toMatchObject({
        sso: false,
      });
    });

    it("signs a new user in through the provider and joins them to that tenant alone, with the default role", async () => {
      const email = `alice@${DOMAIN}`;
      const { agent, landed } = await signInWithSso(email);
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toBe("/");
      const current = await tenantsOf(agent).getCurrent({});
      expect(current.user?.email).toBe(email);
      expect(current.tenant?.id).toBe(tenantId);
      expect(current.role).toBe(Role.EDITOR);
      expect(current.tenants.map((t) => t.id)).toEqual([tenantId]);
      // The account's sign-in history names the method.
      const history = await accountOf(agent).listSignInHistory({});
      expect(history.items[0]).toMatchObject({ method: SignInMethod.SSO_OIDC, success: true, provider: "" });
    });

    it("Require MFA lets a session of the tenant's own single sign-on in, and stops a password-only one", async () => {
      const db = server.palisade.database.db;
      const passwordMember = await server.addMember({ role: "VIEWER", tenantId });
      await saveTenantSettings(db, tenantId, {
        ...(await findTenantSettings(db, tenantId)),
        requireMfa: true,
      });
      try {
        const { agent } = await signInWithSso(`alice@${DOMAIN}`);
        expect((await tenantsOf(agent).getCurrent({})).tenant?.id).toBe(tenantId);
        const refused = await server
          .client(TenantService, passwordMember.credentials)
          .getCurrent({})
          .catch((e) => ConnectError.from(e));
        expect(refused).toBeInstanceOf(ConnectError);
        expect((refused as ConnectError).code).toBe(Code.PermissionDenied);
        expect((refused as ConnectError).rawMessage).toContain("requires two-factor authentication");
      } finally {
        await saveTenantSettings(db, tenantId, {
          ...(await findTenantSettings(db, tenantId)),
          requireMfa: false,
        });
      }
    });

    it("a replayed callback (same state and code) signs nobody in", async () => {
      const { agent, callback, landed } = await signInWithSso(`bob@${DOMAIN}`);
      expect(landed.headers.get("location")).toBe("/");
      for (const replayer of [agent, newBrowser()]) {
        const replay = await replayer.request(callback);
        expect(replay.status).toBe(302);
        expect(replay.headers.get("location")).toContain("error");
        expect(
          replay.headers.getSetCookie().some((c) => c.includes("session_token=") && !c.includes("Max-Age=0")),
        ).toBe(false);
      }
    });

    it("SSO required refuses password and codes for the domain, with a clear message, and not elsewhere", async () => {
      const { userId } = await server.addMember({ role: "VIEWER", tenantId, email: `carol@${DOMAIN}` });
      expect(userId).toBeTruthy();
      await sso(tenantAdmin).updateSettings({
        protocol: SsoProtocol.OIDC,
        oidc: { issuer: idp.issuer, clientId: SSO_CLIENT.clientId, clientSecret: "" },
        domains: [DOMAIN, "unproved-sso.test"],
        defaultRole: Role.EDITOR,
        ssoRequired: true,
      });
      expect(await sso({ kind: "none" }).lookupDomain({ email: `carol@${DOMAIN}` })).toMatchObject({
        sso: true,
        required: true,
      });
      const password = await post("/sign-in/email", {
        email: `carol@${DOMAIN}`,
        password: "password-whatever-long",
      });
      expect(password.status).toBe(403);
      const body = (await password.json()) as { code: string; message: string };
      expect(body.code).toBe("SSO_REQUIRED");
      expect(body.message).toContain(
        `Addresses at ${DOMAIN} sign in with your organisation's single sign-on`,
      );
      const code = await post("/email-otp/send-verification-otp", {
        email: `carol@${DOMAIN}`,
        type: "sign-in",
      });
      expect(code.status).toBe(403);
      for (const link of ["/enchanted-link/send", "/whatsapp-link/send"])
        expect((await post(link, { email: `carol@${DOMAIN}` })).status).toBe(403);
      // The unverified domain and other addresses keep their methods.
      const unproved = await post("/sign-in/email", {
        email: "dave@unproved-sso.test",
        password: "password-whatever-long",
      });
      expect(unproved.status).toBe(401);
      expect((await post("/sign-in/email", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(
        200,
      );
      // The stored secret was kept: single sign-on still works.
      const { landed } = await signInWithSso(`erin@${DOMAIN}`);
      expect(landed.headers.get("location")).toBe("/");
    });

    it("generic OpenID Connect sign-in creates the account but no membership", async () => {
      const options = await sso({ kind: "none" }).getSignInOptions({});
      expect(options.providers).toEqual([expect.objectContaining({ id: "oidc", name: "Corporate ID" })]);
      const agent = newBrowser();
      const started = await agent.request(`${PUBLIC_URL}/api/auth/sign-in/social`, {
        json: { provider: "oidc", callbackURL: "/" },
        origin: PUBLIC_URL,
      });
      expect(started.status).toBe(200);
      const { url } = (await started.json()) as { url: string };
      const email = "frank@social-only.test";
      const callback = await signInAtProvider(agent, url, email);
      expect(callback).toContain("/api/auth/callback/oidc");
      const landed = await agent.request(callback);
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toBe("/");
      const session = await agent.request(`${PUBLIC_URL}/api/auth/get-session`);
      expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
      const history = await accountOf(agent).listSignInHistory({});
      expect(history.items[0]).toMatchObject({
        method: SignInMethod.SOCIAL,
        provider: "Corporate ID",
        success: true,
      });
      const db = server.palisade.database.db;
      const [account] = await db.select().from(user).where(eq(user.email, email));
      expect(account).toBeDefined();
      expect(
        await db
          .select()
          .from(member)
          .where(eq(member.userId, account?.id ?? "")),
      ).toEqual([]);
    });
  },
);
