import { AccountService, SignInMethod } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { SsoProtocol, SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { type BrowserAgent, createBrowserAgent, pageClient } from "./support/browser-agent";
import { type SamlTestIdp, startSamlTestIdp } from "./support/saml-test-idp";
import { identityFlowEngines } from "./support/test-database";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  type Credentials,
  startTestServer,
  type TestServer,
} from "./support/test-server";

const DOMAIN = "saml-corp.test";
const PUBLIC_URL = "https://palisade-saml.test";

describe.each(identityFlowEngines)(
  "single sign-on by SAML 2.0 against a samlify identity provider on %s",
  (engine) => {
    let idp: SamlTestIdp;
    let server: TestServer;
    let tenantId: string;

    beforeAll(async () => {
      idp = await startSamlTestIdp();
      server = await startTestServer(engine, { PUBLIC_URL });
      tenantId = await server.createTenant("SAML Corp");
      const admin = (await server.addMember({ role: "ADMINISTRATOR", tenantId })).credentials;
      const saved = await server.client(SsoService, admin).updateSettings({
        protocol: SsoProtocol.SAML,
        saml: { issuer: idp.entityId, entryPoint: idp.ssoUrl, certificate: idp.certificate },
        domains: [DOMAIN],
        defaultRole: Role.MODERATOR,
        ssoRequired: false,
      });
      expect(saved.settings?.acsUrl).toBe(`${PUBLIC_URL}/api/auth/sso/saml2/sp/acs/tenant-${tenantId}`);
      const signIn = await server.palisade.auth.api.signInEmail({
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      const instanceAdmin: Credentials = { kind: "bearer", token: signIn.token };
      await server
        .client(SsoService, instanceAdmin)
        .setDomainVerified({ tenantId, domain: DOMAIN, verified: true });
      // The IdP's administrator loads Palisade's service provider metadata.
      const metadataUrl = saved.settings?.spMetadataUrl ?? "";
      const metadata = await fetch(`${server.url}${metadataUrl.slice(PUBLIC_URL.length)}`);
      expect(metadata.status).toBe(200);
      idp.trustServiceProvider(await metadata.text());
    });
    afterAll(async () => {
      await server?.stop();
      await idp?.stop();
    });

    /** Starts single sign-on in a fresh browser and carries the IdP's form back to Palisade. */
    async function signInThroughIdp(email: string, forged: boolean) {
      idp.session = { email, forged };
      const agent = createBrowserAgent({ [PUBLIC_URL]: server.url });
      const started = await agent.request(`${PUBLIC_URL}/api/auth/sign-in/sso`, {
        json: { email, callbackURL: "/" },
        origin: PUBLIC_URL,
      });
      expect(started.status).toBe(200);
      const { url } = (await started.json()) as { url: string };
      expect(url.startsWith(idp.ssoUrl)).toBe(true);
      const page = await agent.request(url);
      const html = await page.text();
      expect(page.status, html).toBe(200);
      const action = html.match(/action="([^"]+)"/)?.[1] ?? "";
      const form = Object.fromEntries(
        [...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [
          m[1],
          (m[2] ?? "").replace(/&quot;/g, '"'),
        ]),
      );
      expect(action).toBe(`${PUBLIC_URL}/api/auth/sso/saml2/sp/acs/tenant-${tenantId}`);
      const posted = await agent.request(action, { form, origin: new URL(idp.ssoUrl).origin });
      return { agent, posted };
    }

    const tenantsOf = (agent: BrowserAgent) => pageClient(agent, PUBLIC_URL, server.url, TenantService);
    const accountOf = (agent: BrowserAgent) => pageClient(agent, PUBLIC_URL, server.url, AccountService);

    it("a signed response signs a new user in and joins them to the tenant with its default role", async () => {
      const email = `grace@${DOMAIN}`;
      const { agent, posted } = await signInThroughIdp(email, false);
      expect(posted.status).toBe(302);
      expect(posted.headers.get("location")).not.toContain("error");
      const current = await tenantsOf(agent).getCurrent({});
      expect(current.user?.email).toBe(email);
      expect(current.tenant?.id).toBe(tenantId);
      expect(current.role).toBe(Role.MODERATOR);
      expect(current.tenants.map((t) => t.id)).toEqual([tenantId]);
      // The account's sign-in history names the method.
      const history = await accountOf(agent).listSignInHistory({});
      expect(history.items[0]).toMatchObject({ method: SignInMethod.SSO_SAML, success: true });
    });

    it("a response signed with another key is refused and creates nobody", async () => {
      const email = `mallory@${DOMAIN}`;
      const { agent, posted } = await signInThroughIdp(email, true);
      expect(posted.status).toBe(302);
      expect(posted.headers.get("location")).toContain("error");
      expect(agent.cookieHeader(PUBLIC_URL)).not.toContain("session_token");
      const db = server.palisade.database.db;
      expect(await db.select().from(user).where(eq(user.email, email))).toEqual([]);
    });
  },
);
