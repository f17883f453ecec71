import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../src/http/security-headers";
import { createRouteFinder } from "../src/http/static-web";
import { startTestServer, type TestServer } from "./support/test-server";

const INDEX_HTML = `<!doctype html><html><head>
<script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div>${" ".repeat(2048)}</body></html>`;
const REQ_HTML = `<!doctype html><html><head>
<script type="module" src="/assets/req-def456.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = `console.log("palisade");${"/* padding */".repeat(200)}`;
// The waiver page (/req) is its own entry, req.html, and not one of the app's routes.
const ROUTES = ["/", "/dashboard", "/policies", "/policies/$policyId", "/policies/create"];

/** The code the build says each page loads first (preloads.json), one path that is not an asset among it. */
const PRELOADS = {
  routes: {
    "/dashboard": ["/assets/dashboard-aaa111.js", "/assets/shell-bbb222.js"],
    "/policies/$policyId": ["/assets/policy-ccc333.js"],
    "/policies/create": ["/assets/create-ddd444.js", "https://elsewhere.example/x.js"],
  },
  withKey: { "/req": ["/assets/text-block-eee555.js"] },
};
const SESSION_LINK = `<link rel="preload" as="fetch" href="/api/auth/get-session" crossorigin="anonymous" />`;

/**
 * The signed-in pages' renderer as the web build writes it (`.ssr/app-server.js`), here naming the
 * dashboard's first reads and leaving every page to the browser: the pages' heads preload the reads.
 */
const UNRENDERING_APP_RENDERER = `export function firstReadsOf(path) {
  return path === "/dashboard"
    ? ["palisade.tenant.v1.TenantService/GetCurrent", "palisade.deployment.v1.DeploymentManagerService/SummaryBundle"]
    : undefined;
}
export async function renderSignedInPage() { return undefined; }`;

/** A web build as the web app's build writes it: pre-compressed copies, the route list and the page renderers. */
function writeWebBuild(dir: string) {
  mkdirSync(join(dir, "assets"), { recursive: true });
  mkdirSync(join(dir, ".ssr"), { recursive: true });
  const files: Record<string, string> = {
    ".ssr/app-server.js": UNRENDERING_APP_RENDERER,
    "index.html": INDEX_HTML,
    "req.html": REQ_HTML,
    "assets/index-abc123.js": SCRIPT,
    "favicon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
  };
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), content);
    if (content.length > 1024) {
      writeFileSync(join(dir, `${name}.br`), brotliCompressSync(content));
      writeFileSync(join(dir, `${name}.gz`), gzipSync(content));
    }
  }
  writeFileSync(join(dir, "routes.json"), JSON.stringify(ROUTES));
  writeFileSync(join(dir, "preloads.json"), JSON.stringify(PRELOADS));
}

function expectSecurityHeaders(response: Response, referrerPolicy = "strict-origin-when-cross-origin") {
  const csp = response.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(csp).toBe(contentSecurityPolicy(nonce));
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe(referrerPolicy);
  expect(response.headers.get("permissions-policy")).toContain("camera=()");
  // Chromium warns on every page about a feature it does not know.
  expect(response.headers.get("permissions-policy")).not.toContain("bluetooth");
}

/** The built page, as served less the per-answer nonce and the links announced in its head. */
function withoutNonce(html: string): string {
  return html
    .replace(/\n {4}<meta name="csp-nonce" content="[^"]+" \/>/, "")
    .replace(/( {2}<link rel="(module)?preload"[^>]*\/>\n)+ {2}<\/head>/, "</head>");
}

/** The links a served page's head announces. */
function announced(html: string): string[] {
  return [...html.matchAll(/<link rel="(?:module)?preload"[^>]*\/>/g)].map((m) => m[0]);
}

/** Node's fetch decodes bodies itself; these requests read the bytes as sent. */
async function rawGet(url: string, headers: Record<string, string>) {
  const { request } = await import("node:http");
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("the web app's delivery and security headers", () => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), "palisade-web-"));
    writeWebBuild(webDist);
    server = await startTestServer("pglite", { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(webDist, { recursive: true, force: true });
  });

  it("headers on the page: CSP, framing, sniffing, referrer", async () => {
    const page = await fetch(`${server.url}/dashboard`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expectSecurityHeaders(page);
    const csp = page.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "connect-src 'self'",
      "img-src 'self' data:",
      "object-src 'none'",
      "base-uri 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(page.headers.get("strict-transport-security")).toBeNull();
  });

  it("the waiver page, whose URL carries a key, is sent with no-referrer", async () => {
    const page = await fetch(`${server.url}/req?k=ABCDEFG`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expectSecurityHeaders(page, "no-referrer");
  });

  it("headers on assets, RPC answers, RPC errors and not-found answers", async () => {
    expectSecurityHeaders(await fetch(`${server.url}/assets/index-abc123.js`));
    const rpc = await fetch(`${server.url}/palisade.policy.v1.PolicyService/ResolvePolicyKey`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: "ABCDEFG" }),
    });
    expectSecurityHeaders(rpc);
    const denied = await fetch(`${server.url}/palisade.tenant.v1.TenantService/GetCurrent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(denied.status).toBe(401);
    expectSecurityHeaders(denied);
    // API answers, successful or not, are never cached.
    for (const answer of [rpc, denied, await fetch(`${server.url}/api/auth/get-session`)]) {
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    expectSecurityHeaders(await fetch(`${server.url}/assets/missing-000000.js`));
    expectSecurityHeaders(await fetch(`${server.url}/healthz`));
  });

  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const)("hashed assets come %s-compressed and cached for good", async (encoding, decompress) => {
    const asset = await rawGet(`${server.url}/assets/index-abc123.js`, { "accept-encoding": encoding });
    expect(asset.status).toBe(200);
    expect(asset.headers["content-encoding"]).toBe(encoding);
    expect(asset.headers.vary).toContain("accept-encoding");
    expect(asset.headers["content-type"]).toContain("javascript");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(decompress(asset.body).toString()).toBe(SCRIPT);
  });

  it("a client that accepts no compression gets the file as is; Brotli is preferred", async () => {
    const plain = await rawGet(`${server.url}/assets/index-abc123.js`, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    const both = await rawGet(`${server.url}/assets/index-abc123.js`, {
      "accept-encoding": "gzip, deflate, br",
    });
    expect(both.headers["content-encoding"]).toBe("br");
  });

  it("the page itself is compressed and never cached without checking", async () => {
    const page = await rawGet(`${server.url}/`, { "accept-encoding": "br", accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers.vary).toContain("accept-encoding");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(withoutNonce(brotliDecompressSync(page.body).toString())).toBe(INDEX_HTML);
  });

  it("each page answer carries a fresh style nonce, in its policy and in the page", async () => {
    const nonces = [];
    for (let i = 0; i < 2; i += 1) {
      const page = await fetch(`${server.url}/dashboard`, { headers: { accept: "text/html" } });
      const nonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(page.headers.get("content-security-policy")).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(await page.text()).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
    // Nothing but the page may use a nonce.
    const asset = await fetch(`${server.url}/assets/index-abc123.js`);
    expect(asset.headers.get("content-security-policy")).toBe(contentSecurityPolicy());
  });

  it("known routes, deep ones with parameters too, answer 200 with the page", async () => {
    for (const path of ["/dashboard", "/dashboard/", "/policies/0b6f2a1e-policy", "/policies/create"]) {
      const page = await rawGet(`${server.url}${path}`, { accept: "text/html", "accept-encoding": "gzip" });
      expect(page.status, path).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-cache");
      expect(withoutNonce(gunzipSync(page.body).toString())).toBe(INDEX_HTML);
    }
  });

  it("the waiver page answers with its own entry's page, with a nonce, at /req only", async () => {
    for (const path of ["/req", "/req/", "/req?k=ABCDEFG"]) {
      const page = await fetch(`${server.url}${path}`, { headers: { accept: "text/html" } });
      expect(page.status, path).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-cache");
      const html = await page.text();
      expect(html).toMatch(/<meta name="csp-nonce" content="[^"]+" \/>/);
      expect(withoutNonce(html)).toBe(REQ_HTML);
    }
    const other = await fetch(`${server.url}/req/other`, { headers: { accept: "text/html" } });
    expect(other.status).toBe(404);
    expect(withoutNonce(await other.text())).toBe(INDEX_HTML);
    // The built pages are only sent rendered, never as files.
    for (const file of ["/req.html", "/index.html"]) {
      const raw = await fetch(`${server.url}${file}`);
      expect(raw.status, file).toBe(404);
      expect(raw.headers.get("content-type") ?? "").not.toContain("text/html");
    }
  });

  it("the head announces the session and the code of the route at the address", async () => {
    const cases: [string, string[]][] = [
      ["/dashboard", PRELOADS.routes["/dashboard"]],
      ["/policies/0b6f2a1e-policy", PRELOADS.routes["/policies/$policyId"]],
      // A fixed segment wins over a parameter; an address that is not an asset is not announced.
      ["/policies/create", ["/assets/create-ddd444.js"]],
      ["/policies", []],
      ["/no-such-page", []],
    ];
    for (const [path, code] of cases) {
      const page = await fetch(`${server.url}${path}`, { headers: { accept: "text/html" } });
      expect(announced(await page.text()), path).toEqual([
        SESSION_LINK,
        ...code.map((file) => `<link rel="modulepreload" crossorigin href="${file}" />`),
      ]);
    }
  });

  it("a signed-in dashboard's head announces its first reads as the Connect GETs the page sends", async () => {
    const read = (procedure: string) =>
      `<link rel="preload" as="fetch" href="/${procedure}?connect=v1&amp;encoding=json&amp;message=%7B%7D" crossorigin="anonymous" />`;
    const code = PRELOADS.routes["/dashboard"].map(
      (file) => `<link rel="modulepreload" crossorigin href="${file}" />`,
    );
    const html = async (path: string, cookie?: string) =>
      announced(
        await (
          await fetch(`${server.url}${path}`, {
            headers: { accept: "text/html", ...(cookie ? { cookie } : {}) },
          })
        ).text(),
      );
    const reads = [
      read("palisade.tenant.v1.TenantService/GetCurrent"),
      read("palisade.deployment.v1.DeploymentManagerService/SummaryBundle"),
    ];
    for (const cookie of [
      "palisade.session_token=abc.def",
      "theme=dark; __Secure-palisade.session_token=abc",
    ]) {
      expect(await html("/dashboard", cookie), cookie).toEqual([SESSION_LINK, ...code, ...reads]);
    }
    // Signed out (or another cookie only), the page sends the visitor to sign in: nothing to read.
    expect(await html("/dashboard")).toEqual([SESSION_LINK, ...code]);
    expect(await html("/dashboard", "theme=dark; xpalisade.session_token=abc")).toEqual([
      SESSION_LINK,
      ...code,
    ]);
    // Other pages do not read the dashboard's figures.
    expect(await html("/policies/0b6f2a1e-policy", "palisade.session_token=abc")).not.toContain(reads[1]);
  });

  it("the waiver page's head announces the lookup of the key in its address and what a key loads", async () => {
    const lookup = (key: string) =>
      `<link rel="preload" as="fetch" href="/palisade.policy.v1.PolicyService/GetBundleByKey?connect=v1&amp;encoding=json&amp;message=%7B%22key%22%3A%22${key}%22%7D" crossorigin="anonymous" />`;
    const textBlock = `<link rel="modulepreload" crossorigin href="/assets/text-block-eee555.js" />`;
    const html = async (path: string) =>
      announced(await (await fetch(`${server.url}${path}`, { headers: { accept: "text/html" } })).text());
    // As the page sends it: trimmed, cut to a key's length, in capitals.
    expect(await html("/req?k=%20abcdefgh")).toEqual([SESSION_LINK, lookup("ABCDEFG"), textBlock]);
    // Not a key's format: the page shows why, without a lookup.
    expect(await html("/req?k=ab%22%3E")).toEqual([SESSION_LINK, textBlock]);
    expect(await html("/req")).toEqual([SESSION_LINK]);
  });

  it("the lookup the head announces answers as a Connect GET, the same as the page's POST", async () => {
    const path = "/palisade.policy.v1.PolicyService/GetBundleByKey";
    const got = await fetch(
      `${server.url}${path}?connect=v1&encoding=json&message=%7B%22key%22%3A%22ABCDEFG%22%7D`,
    );
    const posted = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: "ABCDEFG" }),
    });
    expect(got.status).toBe(posted.status);
    expect(await got.json()).toEqual(await posted.json());
  });

  it("unknown paths answer 404 with the page, which shows the app's Not Found screen", async () => {
    for (const path of ["/no-such-page", "/policies/a/b/c", "/dashboard/extra"]) {
      const page = await fetch(`${server.url}${path}`, { headers: { accept: "text/html" } });
      expect(page.status, path).toBe(404);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(withoutNonce(await page.text())).toBe(INDEX_HTML);
      expectSecurityHeaders(page);
    }
    const missingAsset = await fetch(`${server.url}/assets/missing-000000.js`);
    expect(missingAsset.status).toBe(404);
    expect(missingAsset.headers.get("content-type")).not.toContain("text/html");
  });
});

describe("HSTS", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite", { PUBLIC_URL: "https://palisade.example" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("is sent when the public address is https", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });
});

describe("route matching", () => {
  const find = createRouteFinder(["/", "/policies", "/policies/$policyId", "/policies/create", "/files/$"]);
  const isRoute = (path: string) => find(path) !== undefined;
  it("a path of fixed segments is its own route, not a parameter's", () => {
    expect(find("/policies/create")).toBe("/policies/create");
    expect(find("/policies/abc")).toBe("/policies/$policyId");
  });
  it.each([
    ["/", true],
    ["/policies", true],
    ["/policies/", true],
    ["/policies/abc", true],
    ["/policies/abc/edit", false],
    ["/files/a/b", true],
    ["/files", false],
    ["/other", false],
    ["/policies/%E0%A4%A", true],
  ])("%s -> %s", (path, expected) => {
    expect(isRoute(path)).toBe(expected);
  });
});
