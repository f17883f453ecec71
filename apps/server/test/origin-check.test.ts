import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestShapeEngines } from "./support/test-database";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from "./support/test-server";

const PUBLIC_URL = "https://palisade.example";
const PRIVATE_METHOD = "/palisade.tenant.v1.TenantService/GetCurrent";
const PUBLIC_METHOD = "/palisade.policy.v1.PolicyService/ResolvePolicyKey";

describe.each(requestShapeEngines)("Origin of cookie-authenticated RPCs (%s)", (engine) => {
  let server: TestServer;
  let cookie: string;
  let sessionToken: string;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer(engine, { PUBLIC_URL });
    const signIn = await server.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(signIn.status).toBe(200);
    cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const member = await server.addMember({ role: "VIEWER" });
    if (member.credentials.kind !== "bearer") throw new Error("expected a bearer token");
    sessionToken = member.credentials.token;
    apiKey = await server.createApiKey({ tenantId: server.defaultTenantId, role: "VIEWER" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function call(path: string, headers: Record<string, string>, body: unknown = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
  }

  it.each([
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["a null Origin", { origin: "null" }],
    ["no Origin", {}],
    ["a look-alike of the public address", { origin: "https://palisade.example.evil.example" }],
  ])("with the session cookie and %s, is refused", async (_name, headers) => {
    const answer = await call(PRIVATE_METHOD, { cookie, ...headers });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: "permission_denied", message: "cross-site request refused" });
  });

  it.each([
    ["the origin it was addressed to", () => server.url],
    ["the public address", () => PUBLIC_URL],
  ])("with the session cookie and %s, is answered", async (_name, origin) => {
    const answer = await call(PRIVATE_METHOD, { cookie, origin: origin() });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ user: { email: ADMIN_EMAIL } });
  });

  it.each([
    ["an API key", () => `Bearer ${apiKey}`],
    ["a bearer session token", () => `Bearer ${sessionToken}`],
  ])("with %s, whatever the Origin, is answered", async (_name, authorization) => {
    for (const origin of [undefined, "https://evil.example", "null"]) {
      const answer = await call(PRIVATE_METHOD, {
        authorization: authorization(),
        ...(origin ? { origin } : {}),
      });
      expect(answer.status, String(origin)).toBe(200);
    }
  });

  it("a public method answers any Origin, with or without the cookie", async () => {
    const cases: Record<string, string>[] = [
      { origin: "https://evil.example" },
      {},
      { cookie, origin: "https://evil.example" },
    ];
    for (const headers of cases) {
      const answer = await call(PUBLIC_METHOD, headers, { text: "no key in here" });
      expect(answer.body.message).not.toBe("cross-site request refused");
    }
  });

  // What a page's head preloads, and the page's own fetch of the same address, send: no Origin
  // (browsers omit it on a same-origin GET) but the browser's Sec-Fetch-Site.
  async function get(path: string, headers: Record<string, string>) {
    const response = await fetch(`${server.url}${path}?connect=v1&encoding=json&message=%7B%7D`, { headers });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
  }

  it("a Connect GET of a read, with the session cookie and Sec-Fetch-Site same-origin, is answered", async () => {
    for (const path of [PRIVATE_METHOD, "/palisade.deployment.v1.DeploymentManagerService/SummaryBundle"]) {
      const answer = await get(path, { cookie, "sec-fetch-site": "same-origin" });
      expect(answer.status, path).toBe(200);
    }
    expect((await get(PRIVATE_METHOD, { cookie, "sec-fetch-site": "same-origin" })).body).toMatchObject({
      user: { email: ADMIN_EMAIL },
    });
  });

  it.each([
    ["another site", { "sec-fetch-site": "cross-site" }],
    ["another subdomain of the same site", { "sec-fetch-site": "same-site" }],
    ["a typed address or bookmark", { "sec-fetch-site": "none" }],
    ["no Sec-Fetch-Site", {}],
    ["a foreign Origin and no Sec-Fetch-Site", { origin: "https://evil.example" }],
  ])("a Connect GET of a read with the session cookie from %s is refused", async (_name, headers) => {
    const answer = await get(PRIVATE_METHOD, { cookie, ...headers });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: "permission_denied", message: "cross-site request refused" });
  });

  it("a POST still needs its Origin: Sec-Fetch-Site same-origin alone does not answer it", async () => {
    const answer = await call(PRIVATE_METHOD, { cookie, "sec-fetch-site": "same-origin" });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe("cross-site request refused");
    // A method with side effects is not served as a GET at all.
    const update = await fetch(
      `${server.url}/palisade.tenant.v1.TenantService/UpdateSettings?connect=v1&encoding=json&message=%7B%7D`,
      { headers: { cookie, "sec-fetch-site": "same-origin" } },
    );
    expect(update.ok).toBe(false);
  });

  it("an unknown cookie is still unauthenticated, not a cross-site refusal", async () => {
    const answer = await call(PRIVATE_METHOD, {
      cookie: "palisade.session_token=forged",
      origin: "https://evil.example",
    });
    expect(answer.body.code).toBe("unauthenticated");
  });
});
