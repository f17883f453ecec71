import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundles } from "../src/modules/deployment/deployment-schema";
import { startTestServer, type TestServer } from "./support/test-server";

const REQ_HTML = `<!doctype html><html><head>
<script type="module" src="/assets/req-def456.js"></script></head><body><div id="root"></div></body></html>`;
const PRELOADS = {
  routes: { "/dashboard": ["/assets/dashboard-ddd444.js"] },
  withKey: { "/req": ["/assets/text-block-eee555.js"] },
};
const TEXT_BLOCK_LINK = `<link rel="modulepreload" crossorigin href="/assets/text-block-eee555.js" />`;
const DASHBOARD_LINK = `<link rel="modulepreload" crossorigin href="/assets/dashboard-ddd444.js" />`;

/**
 * A renderer as the web build writes it (`.ssr/req-server.js`), which shows what it read through
 * the server: the session, and the key's policy as the page would look it up.
 */
const ECHO_RENDERER = `export async function renderWaiverRequestPage(search, reads) {
  const key = new URLSearchParams(search).get("k") ?? "";
  const session = await reads.session();
  const bundle = key ? await reads.call("palisade.policy.v1.PolicyService/GetBundleByKey", { key }) : undefined;
  const read = { search, session: session ? session.user.email : null, bundle: bundle ? bundle.key : null };
  return { html: "<p>rendered</p>", dataScript: "<script type=\\"application/json\\" id=\\"read\\">" + JSON.stringify(read) + "</script>" };
}`;
const FAILING_RENDERER = `export async function renderWaiverRequestPage() { throw new Error("render failed"); }`;

/**
 * A signed-in pages' renderer as the web build writes it (`.ssr/app-server.js`), which shows what it
 * read through the server: the session and the caller's tenant, asked as the page would ask them.
 */
const FIRST_READS = `export function firstReadsOf(path) {
  return path === "/dashboard"
    ? ["palisade.tenant.v1.TenantService/GetCurrent", "palisade.deployment.v1.DeploymentManagerService/SummaryBundle"]
    : undefined;
}`;
const ECHO_APP_RENDERER = `${FIRST_READS}
export async function renderSignedInPage(url, reads) {
  const session = await reads.session();
  const current = await reads.get("palisade.tenant.v1.TenantService/GetCurrent");
  const read = { url, session: session ? session.user.email : null, tenant: current ? current.tenant.name : null };
  return { html: "<p>signed in</p>", dataScript: "<script type=\\"application/json\\" id=\\"read\\">" + JSON.stringify(read) + "</script>" };
}`;
const FAILING_APP_RENDERER = `${FIRST_READS}
export async function renderSignedInPage() { throw new Error("render failed"); }`;

function writeWebBuild(dir: string, renderer: string, appRenderer = ECHO_APP_RENDERER) {
  mkdirSync(join(dir, ".ssr"), { recursive: true });
  writeFileSync(join(dir, "index.html"), REQ_HTML.replace("req-def456", "index-abc123"));
  writeFileSync(join(dir, "req.html"), REQ_HTML);
  writeFileSync(join(dir, "routes.json"), JSON.stringify(["/", "/dashboard"]));
  writeFileSync(join(dir, "preloads.json"), JSON.stringify(PRELOADS));
  writeFileSync(join(dir, ".ssr", "req-server.js"), renderer);
  writeFileSync(join(dir, ".ssr", "app-server.js"), appRenderer);
}

/** What a deny message tells the engineer: Markdown, with text that must not end the page's data block. */
const FEEDBACK = "Ask the **platform team** first. </script><script>alert(1)</script>";

/** A bundle whose key the waiver page looks up: a catalogue policy, deployed. */
async function insertBundle(server: TestServer, key: string) {
  await server.palisade.database.db.insert(bundles).values({
    tenantId: server.defaultTenantId,
    key,
    name: "Serial console",
    feedbackMessage: FEEDBACK,
    policySlug: "deny-ec2-serial-console-access",
    provider: "AWS",
    mode: "PREVENT",
    status: "DEPLOYED",
    scopes: [{ id: "111122223333" }],
    waiverApprovalMode: "AUTO",
    createdBy: "test",
  });
}

/** The session cookie of a new member of the default tenant, signed in with their password. */
async function memberCookie(server: TestServer, options: { email?: string; name?: string }) {
  const member = await server.addMember({ role: "VIEWER", ...options });
  const signIn = await server.signIn(member.email, member.password);
  return signIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

const pageOf = async (server: TestServer, path: string, cookie?: string) =>
  (
    await fetch(`${server.url}${path}`, { headers: { accept: "text/html", ...(cookie ? { cookie } : {}) } })
  ).text();

describe("the pages rendered on the server, through their renderers", () => {
  const builds: string[] = [];
  const servers: TestServer[] = [];
  const serve = async (renderer: string, appRenderer?: string) => {
    const webDist = mkdtempSync(join(tmpdir(), "palisade-web-"));
    builds.push(webDist);
    writeWebBuild(webDist, renderer, appRenderer);
    const server = await startTestServer("pglite", { WEB_DIST: webDist });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    for (const dir of builds) rmSync(dir, { recursive: true, force: true });
  });

  it("puts the content in #root and the data after it; only the code is left to preload", async () => {
    const server = await serve(ECHO_RENDERER);
    await insertBundle(server, "SRV7KEY");
    const html = await pageOf(server, "/req?k=SRV7KEY");
    expect(html).toContain('<div id="root"><p>rendered</p></div><script type="application/json" id="read">');
    const read = JSON.parse(/id="read">([^<]*)</.exec(html)?.[1] ?? "null");
    // The lookup was answered as the page's would be; signed out, there is no session.
    expect(read).toEqual({ search: "?k=SRV7KEY", session: null, bundle: "SRV7KEY" });
    // The session and the lookup were read already: the head announces only what a key's card loads.
    expect(html).not.toContain("get-session");
    expect(html).not.toContain("GetBundleByKey");
    expect(html).toContain(TEXT_BLOCK_LINK);
    expect(html).toContain(
      '<script type="module" src="/start-after-paint.js?entry=%2Fassets%2Freq-def456.js">',
    );

    // An unknown key is read as not found, and the page still renders (its card says so).
    expect(
      JSON.parse(/id="read">([^<]*)</.exec(await pageOf(server, "/req?k=NOSUCH1"))?.[1] ?? "null"),
    ).toEqual({
      search: "?k=NOSUCH1",
      session: null,
      bundle: null,
    });
  });

  it("reads the visitor's session with their cookie", async () => {
    const server = servers[0] ?? (await serve(ECHO_RENDERER));
    const cookie = await memberCookie(server, { email: "requester@example.com" });
    const html = await pageOf(server, "/req", cookie);
    expect(JSON.parse(/id="read">([^<]*)</.exec(html)?.[1] ?? "null")).toMatchObject({
      session: "requester@example.com",
    });
  });

  it("never serves a renderer as a file", async () => {
    const server = servers[0] ?? (await serve(ECHO_RENDERER));
    for (const [file, name] of [
      ["req-server.js", "renderWaiverRequestPage"],
      ["app-server.js", "renderSignedInPage"],
    ]) {
      const response = await fetch(`${server.url}/.ssr/${file}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain(name);
    }
  });

  it("renders a signed-in page with the visitor's session and tenant, read with their cookie; only the code is left to preload", async () => {
    const server = servers[0] ?? (await serve(ECHO_RENDERER));
    const cookie = await memberCookie(server, { email: "viewer@example.com" });
    const html = await pageOf(server, "/dashboard?tab=1", cookie);
    expect(html).toContain('<div id="root"><p>signed in</p></div><script type="application/json" id="read">');
    expect(JSON.parse(/id="read">([^<]*)</.exec(html)?.[1] ?? "null")).toEqual({
      url: "/dashboard?tab=1",
      session: "viewer@example.com",
      tenant: "Default",
    });
    expect(html).not.toContain("get-session");
    expect(html).not.toContain("GetCurrent");
    expect(html).toContain(DASHBOARD_LINK);
    // Its code is fetched at once and started once the page's first frame is drawn.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/index-abc123.js" />');
    expect(html).toContain(
      '<script type="module" src="/start-after-paint.js?entry=%2Fassets%2Findex-abc123.js"></script>',
    );
    expect(html).not.toContain('src="/assets/index-abc123.js"');
    // The page carries what the visitor may read: theirs alone, kept by no shared cache.
    const response = await fetch(`${server.url}/dashboard`, { headers: { accept: "text/html", cookie } });
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("leaves a signed-in page to the browser without a session cookie, and with one the server does not know", async () => {
    const server = servers[0] ?? (await serve(ECHO_RENDERER));
    const signedOut = await pageOf(server, "/dashboard");
    expect(signedOut).toContain('<div id="root"></div>');
    // A stale cookie reads as no session and no tenant: the renderer has nothing to show.
    const stale = await pageOf(server, "/dashboard", "palisade.session_token=stale.token");
    expect(JSON.parse(/id="read">([^<]*)</.exec(stale)?.[1] ?? "null")).toMatchObject({
      session: null,
      tenant: null,
    });
  });

  it("sends a signed-in page as built, with its reads preloaded, when its renderer fails", async () => {
    const server = await serve(ECHO_RENDERER, FAILING_APP_RENDERER);
    const cookie = await memberCookie(server, {});
    const html = await pageOf(server, "/dashboard", cookie);
    expect(html).toContain('<div id="root"></div>');
    // Nothing on screen to wait for: the code starts as soon as it arrives.
    expect(html).toContain('<script type="module" src="/assets/index-abc123.js"></script>');
    expect(html).toContain(
      `<link rel="preload" as="fetch" href="/api/auth/get-session" crossorigin="anonymous" />`,
    );
    // The reads its renderer names for the page, preloaded as the page will send them.
    expect(html).toContain("palisade.tenant.v1.TenantService/GetCurrent?connect=v1");
    expect(html).toContain("palisade.deployment.v1.DeploymentManagerService/SummaryBundle?connect=v1");
    expect(html).toContain(DASHBOARD_LINK);
  });

  it("sends the page as built when the renderer fails: the browser renders it", async () => {
    const server = await serve(FAILING_RENDERER);
    const html = await pageOf(server, "/req?k=ABCDEFG");
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(
      `<link rel="preload" as="fetch" href="/api/auth/get-session" crossorigin="anonymous" />`,
    );
    expect(html).toContain("GetBundleByKey");
  });
});

const BUILT_WEB = new URL("../../web/dist", import.meta.url).pathname;

// The suite builds the web app before the tests (scripts/test.sh); a test run alone without a build skips these.
describe.skipIf(
  !["req-server.js", "app-server.js"].every((file) => existsSync(join(BUILT_WEB, ".ssr", file))),
)("the pages as the web build renders them", () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    // A copy: a rebuild of the app during the run changes nothing here.
    webDist = mkdtempSync(join(tmpdir(), "palisade-web-"));
    cpSync(BUILT_WEB, webDist, { recursive: true });
    server = await startTestServer("pglite", { WEB_DIST: webDist });
    await insertBundle(server, "SSR7KEY");
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(webDist, { recursive: true, force: true });
  });

  it("shows the key's policy, its feedback message and the greeting in the HTML, before any script runs", async () => {
    const html = await pageOf(server, "/req?k=ssr7key");
    const root =
      /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="waiver-page-data">/.exec(
        html,
      )?.[1];
    expect(root).toBeDefined();
    expect(root).toContain("Welcome <!-- -->Guest");
    expect(root).toContain("SSR7KEY");
    // The feedback message, its Markdown rendered, its markup shown as text.
    expect(root).toContain("Ask the <strong>platform team</strong> first.");
    expect(root).not.toContain("<script>");
    // The Content-Security-Policy refuses style attributes in a page's HTML: the page has none.
    expect(root).not.toMatch(/\sstyle="/);
    const data = JSON.parse(/id="waiver-page-data">([^<]*)<\/script>/.exec(html)?.[1] ?? "null");
    expect(data).toMatchObject({ userName: null, bundle: { key: "SSR7KEY" } });
    expect(data.bundle.feedbackMessage).toBe(FEEDBACK);
    expect(data.definition.slug).toBe("deny-ec2-serial-console-access");
  });

  it("greets a signed-in requester by name", async () => {
    const cookie = await memberCookie(server, { name: "Dana Requester" });
    const html = await pageOf(server, "/req?k=SSR7KEY", cookie);
    expect(html).toContain("Welcome <!-- -->Dana Requester");
    expect(html).toContain('"userName":"Dana Requester"');
  });

  it("shows the dashboard's heading, the navigation of the visitor's role and the policy figures in the HTML, before any script runs", async () => {
    const cookie = await memberCookie(server, { name: "Vera Viewer" });
    const html = await pageOf(server, "/dashboard", cookie);
    const root =
      /<div id="root">([\s\S]*)<\/div><script type="application\/json" id="signed-in-page-data">/.exec(
        html,
      )?.[1];
    expect(root).toBeDefined();
    expect(root).toMatch(/<h1[^>]*>Dashboard<\/h1>/);
    expect(root).toContain('href="/policies"');
    // The deployed policy, counted.
    expect(root).toMatch(/Deployed policies<\/p><div[^>]*>1<\/div>/);
    expect(root).toContain("Compliance trend");
    expect(root).toContain("Account menu for Vera Viewer");
    // The Content-Security-Policy refuses inline scripts and style attributes in a page's HTML: the page has none.
    expect(root).not.toContain("<script");
    expect(root).not.toMatch(/\sstyle="/);

    const data = JSON.parse(/id="signed-in-page-data">([^<]*)<\/script>/.exec(html)?.[1] ?? "null");
    expect(data.session.user.name).toBe("Vera Viewer");
    // The session's token stays in its cookie, out of the page's reach.
    const token = /palisade\.session_token=([^.;]+)/.exec(cookie)?.[1] ?? "";
    expect(token.length).toBeGreaterThan(16);
    expect(JSON.stringify(data)).not.toContain(token);
    expect(Object.keys(data.reads).sort()).toEqual([
      "palisade.deployment.v1.DeploymentManagerService/SummaryBundle",
      "palisade.tenant.v1.TenantService/GetCurrent",
    ]);
    expect(data.reads["palisade.tenant.v1.TenantService/GetCurrent"].tenant.name).toBe("Default");
  });

  it("serves the script that starts a rendered page's code", async () => {
    const response = await fetch(`${server.url}/start-after-paint.js?entry=%2Fassets%2Findex.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(await response.text()).toContain("requestAnimationFrame");
  });

  it("leaves a page it does not render to the browser", async () => {
    const cookie = await memberCookie(server, {});
    expect(await pageOf(server, "/policies", cookie)).toContain('<div id="root"></div>');
  });

  it("preloads the dashboard's first reads, as its renderer names them, where it sends the page unrendered", async () => {
    // A cookie the server does not know: nothing to render, and the page's reads will say so.
    const html = await pageOf(server, "/dashboard", "palisade.session_token=stale.token");
    expect(html).toContain('<div id="root"></div>');
    for (const procedure of [
      "palisade.tenant.v1.TenantService/GetCurrent",
      "palisade.deployment.v1.DeploymentManagerService/SummaryBundle",
    ]) {
      expect(html).toContain(
        `<link rel="preload" as="fetch" href="/${procedure}?connect=v1&amp;encoding=json&amp;message=%7B%7D" crossorigin="anonymous" />`,
      );
    }
  });
});
