import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Browser, chromium } from "@playwright/test";
import { percentile } from "../support/percentile";
import { record } from "../support/results";

/**
 * The public waiver page's figures against its budgets: the JavaScript `/req` loads on a first
 * visit (gzipped, from Chromium's network log), its Largest Contentful Paint in headless Chromium
 * (median of several fresh loads), and the key lookup RPC under 200 concurrent clients. The
 * server runs as its own process on loopback with the embedded database, the sandbox cloud and
 * a public rate limit high enough not to refuse the load.
 */
const PORT = Number(process.env.BENCH_PORT ?? (await freePort()));
const BASE = `http://127.0.0.1:${PORT}`;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const LOAD_MS = Number(process.env.BENCH_MS ?? 10_000);
const LCP_LOADS = Number(process.env.BENCH_LCP_LOADS ?? 7);
/**
 * How many times slower the browser's processor runs for the paint loads (Chromium's CPU
 * throttling over CDP), the pages and `/healthz` alike: a slower machine's browser on this one.
 */
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 1);
/**
 * The pages' paints are held as ratios to that of `GET /healthz` in the same browser, which scales
 * with the machine and its load as the pages do; `lcpMs` is what they stay under on the
 * development machine.
 */
const BUDGET = {
  reqJsGzipKb: 100,
  dashboardJsGzipKb: 250,
  lcpMs: 500,
  reqLcpRatio: 3,
  dashboardLcpRatio: 4,
  lookupP99Ms: 20,
};
const ADMIN = { email: "bench@palisade.test", password: "bench password long enough" };
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === "object" ? resolve(address.port) : reject()));
    });
  });
}

const workDir = mkdtempSync(join(tmpdir(), "palisade-req-bench-"));
const webDist = process.env.BENCH_WEB_DIST ?? join(workDir, "web");
const children: ChildProcess[] = [];

function run(command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, {
    cwd: new URL("../..", import.meta.url).pathname,
    env: { ...process.env, ...env },
    stdio: ["ignore", process.env.BENCH_VERBOSE ? "inherit" : "ignore", "inherit"],
    // Its own process group, so stopping it also stops what npm started under it.
    detached: true,
  });
  children.push(child);
  return child;
}

function finished(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exit code ${code}`))));
  });
}

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface HierarchyNodeJson {
  name?: string;
  externalId?: string;
  connectorId?: string;
  children?: HierarchyNodeJson[];
}
const flatten = (nodes: HierarchyNodeJson[]): HierarchyNodeJson[] =>
  nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);

/** The administrator's session cookie. */
async function signInCookie(): Promise<string> {
  const signIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify(ADMIN),
  });
  if (!signIn.ok) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** A bundle on the sandbox organisation's Workloads OU, so the lookups find a real key. */
async function createBundle(cookie: string): Promise<string> {
  const call = async <Res>(method: string, body: unknown): Promise<Res> => {
    const response = await fetch(`${BASE}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: BASE },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Res;
  };
  const ou = await until(async () => {
    const { roots = [] } = await call<{ roots?: HierarchyNodeJson[] }>(
      "palisade.connector.v1.ConnectorService/ListHierarchy",
      { provider: "CLOUD_PROVIDER_AWS" },
    );
    return flatten(roots).find((node) => node.name === "Workloads");
  });
  const { bundle } = await call<{ bundle?: { key?: string } }>(
    "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
    {
      name: "Account Block Public Access",
      policySlug: "protect-s3-account-public-access-block",
      scopes: [{ provider: "CLOUD_PROVIDER_AWS", externalId: ou.externalId, connectorId: ou.connectorId }],
      mode: "DEPLOYMENT_MODE_PREVENT",
      isVisible: true,
      waiverSettings: { approvalMode: "WAIVER_APPROVAL_MODE_AUTO" },
    },
  );
  if (!bundle?.key) throw new Error("CreateBundle answered no key");
  // The deploy job shares the embedded database with the lookups; measure once it is done.
  await until(async () => {
    const got = await call<{ bundle?: { bundle?: { status?: string } } }>(
      "palisade.deployment.v1.DeploymentManagerService/GetBundle",
      { key: bundle.key },
    );
    const status = got.bundle?.bundle?.status ?? "";
    return ["DEPLOYMENT_STATUS_DEPLOYED", "DEPLOYMENT_STATUS_FAILED"].includes(status) ? status : undefined;
  });
  return bundle.key;
}

/** A fresh browser context (empty cache), carrying the session cookie when given. */
async function signedInContext(browser: Browser, cookie?: string) {
  const context = await browser.newContext();
  if (cookie) {
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: BASE };
      }),
    );
  }
  return context;
}

/** p50 of `count` sequential requests from one client. */
async function sequentialP50(count: number, send: () => Promise<Response>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const response = await send();
    await response.arrayBuffer();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 0.5);
}

/** Median, least and greatest of the loads that reported a paint, and how many did not. */
function summary(lcps: number[]) {
  // Chromium reports no entry when nothing was painted before the page lost focus or was hidden.
  const painted = lcps.filter((lcp) => lcp > 0).sort((a, b) => a - b);
  return {
    median: percentile(painted, 0.5, Number.NaN),
    min: painted[0] ?? Number.NaN,
    max: painted.at(-1) ?? Number.NaN,
    loads: painted.length,
    without: lcps.length - painted.length,
  };
}

/**
 * LCP_LOADS rounds of one fresh load of each page in turn, so that the baseline and the pages share
 * the machine's changing load: measured one page after another, a busy minute would fall on one
 * of them only and skew their ratio.
 */
async function interleavedLcps(browser: Browser, pages: { path: string; cookie?: string }[]) {
  const lcps = pages.map((): number[] => []);
  for (let round = 0; round < LCP_LOADS; round++) {
    for (const [index, page] of pages.entries()) {
      lcps[index]?.push(await largestContentfulPaint(browser, page.path, page.cookie));
    }
  }
  return lcps.map(summary);
}

/** Every script the first visit of `path` loads, summed raw and gzipped. */
async function firstVisitScripts(browser: Browser, path: string, cookie?: string) {
  const context = await signedInContext(browser, cookie);
  const page = await context.newPage();
  const bodies: Promise<Buffer>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script" || !response.ok()) return;
    const body = response.body();
    bodies.push(body);
    if (process.env.BENCH_VERBOSE) {
      void body.then((b) =>
        console.log(
          `${path} ${new URL(response.url()).pathname} ${(gzipSync(b).length / 1024).toFixed(1)} KB gzipped`,
        ),
      );
    }
  });
  await page.goto(`${BASE}${path}`, { waitUntil: "networkidle" });
  // The lazily loaded parts a found key brings in (the text block) arrive after the lookup.
  await page.waitForTimeout(1_000);
  await page.waitForLoadState("networkidle");
  const files = await Promise.all(bodies);
  await context.close();
  return {
    files: files.length,
    rawKb: files.reduce((sum, body) => sum + body.length, 0) / 1024,
    gzipKb: files.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) / 1024,
  };
}

/** Largest Contentful Paint of a fresh load (empty cache), as Chromium reports it. */
async function largestContentfulPaint(browser: Browser, path: string, cookie?: string): Promise<number> {
  const context = await signedInContext(browser, cookie);
  const page = await context.newPage();
  if (CPU_SLOWDOWN > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  }
  // The page paints its content after its data calls, so the entries are read once the network is idle.
  await page.goto(`${BASE}${path}`, { waitUntil: "networkidle" });
  // Runs in the page; written as source because Node's typings do not know the LCP entry type.
  const { lcp, element } = await page.evaluate<{ lcp: number; element: string }>(`new Promise((resolve) => {
    let latest = { lcp: 0, element: "" };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.startTime < latest.lcp) continue;
        const text = (entry.element && entry.element.textContent || "").trim().slice(0, 60);
        latest = { lcp: entry.startTime, element: (entry.element ? entry.element.tagName.toLowerCase() : "?") + " " + JSON.stringify(text) };
      }
    }).observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(() => resolve(latest), 200);
  })`);
  if (process.env.BENCH_VERBOSE) {
    // Where the time went: the document, then each resource by the time it finished.
    const timeline = await page.evaluate<string[]>(`[
      ...performance.getEntriesByType("navigation").map((e) => "document " + Math.round(e.responseEnd) + " ms, DOMContentLoaded " + Math.round(e.domContentLoadedEventEnd) + " ms, load " + Math.round(e.loadEventEnd) + " ms"),
      ...performance.getEntriesByType("resource").sort((a, b) => a.responseEnd - b.responseEnd).map((e) => Math.round(e.startTime) + "-" + Math.round(e.responseEnd) + " ms " + new URL(e.name).pathname),
    ]`);
    console.log(`${path} LCP ${lcp.toFixed(0)} ms (${element})\n  ${timeline.join("\n  ")}`);
  }
  await context.close();
  return lcp;
}

/**
 * CLIENTS loops, each sending its next lookup when the previous answer arrives, then pausing
 * thinkMs. Paced clients start spread evenly over one pause, as independent requesters arrive;
 * started together they would stay in step and send every request of a second in one burst.
 */
async function lookupLoad(key: string, thinkMs: number, healthz = false) {
  const latencies: number[] = [];
  let failures = 0;
  const stopAt = performance.now() + LOAD_MS;
  const body = JSON.stringify({ key });
  const client = async (_: unknown, index: number) => {
    if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, (index * thinkMs) / CLIENTS));
    while (performance.now() < stopAt) {
      const start = performance.now();
      const response = healthz
        ? await fetch(`${BASE}/healthz`)
        : await fetch(`${BASE}/palisade.policy.v1.PolicyService/GetBundleByKey`, {
            method: "POST",
            headers: { "content-type": "application/json", "connect-protocol-version": "1" },
            body,
          });
      await response.arrayBuffer();
      if (response.ok) latencies.push(performance.now() - start);
      else failures++;
      if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5, Number.NaN),
    p99: percentile(latencies, 0.99, Number.NaN),
  };
}

try {
  if (!process.env.BENCH_WEB_DIST) {
    await finished(
      run("npm", ["run", "-w", "@palisade/web", "build", "--", "--outDir", webDist, "--emptyOutDir"]),
    );
  }
  run("npm", ["run", "-w", "@palisade/server", "serve"], {
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: join(workDir, "data"),
    PUBLIC_URL: BASE,
    WEB_DIST: webDist,
    LOG_LEVEL: "warn",
    PALISADE_ADMIN_EMAIL: ADMIN.email,
    PALISADE_ADMIN_PASSWORD: ADMIN.password,
    SANDBOX_ACTIVITY: "false",
    PUBLIC_RATE_LIMIT_BURST: "1000000",
    PUBLIC_RATE_LIMIT_PER_SECOND: "1000000",
  });
  await until(async () => ((await fetch(`${BASE}/healthz`)).ok ? true : undefined));
  const cookie = await signInCookie();
  const key = await createBundle(cookie);

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const scripts = {
    empty: await firstVisitScripts(browser, "/req"),
    withKey: await firstVisitScripts(browser, `/req?k=${key}`),
    dashboard: await firstVisitScripts(browser, "/dashboard", cookie),
  };
  // The baseline: the server's cheapest answer (a line of JSON, which Chromium shows as text),
  // loaded the same way. It is what a fresh browser context costs on this machine before any
  // script runs.
  const [reqLcp, dashboardLcp, healthzLcp] = await interleavedLcps(browser, [
    { path: `/req?k=${key}` },
    { path: "/dashboard", cookie },
    { path: "/healthz" },
  ]);
  if (!reqLcp || !dashboardLcp || !healthzLcp) throw new Error("a page was not measured");
  await browser.close();

  // The cheapest route, measured the same way, is the baseline of the lookups.
  const lookupBody = JSON.stringify({ key });
  const lookup = () =>
    fetch(`${BASE}/palisade.policy.v1.PolicyService/GetBundleByKey`, {
      method: "POST",
      headers: { "content-type": "application/json", "connect-protocol-version": "1" },
      body: lookupBody,
    });
  await sequentialP50(200, lookup);
  const healthzP50 = await sequentialP50(500, () => fetch(`${BASE}/healthz`));
  const lookupP50 = await sequentialP50(500, lookup);
  // Warm the server's paths before measuring.
  await lookupLoad(key, 0).catch(() => undefined);
  const paced = await lookupLoad(key, 1_000);
  const pacedHealthz = await lookupLoad(key, 1_000, true);
  const backToBack = await lookupLoad(key, 0);

  const group = "pages and lookups (PGlite)";
  const js = [
    ["/req first visit", scripts.empty, BUDGET.reqJsGzipKb],
    ["/req?k=KEY first visit (found key)", scripts.withKey, undefined],
    ["/dashboard first visit (signed in)", scripts.dashboard, BUDGET.dashboardJsGzipKb],
  ] as const;
  for (const [label, s, budget] of js) {
    record({
      group,
      figure: `${label}: JavaScript gzipped (${s.files} files, ${s.rawKb.toFixed(0)} KB raw)`,
      value: Number(s.gzipKb.toFixed(1)),
      unit: "KB",
      budget: budget ? { kind: "max", value: budget } : undefined,
    });
  }
  for (const [label, l, maxRatio] of [
    [`/req?k=KEY`, reqLcp, BUDGET.reqLcpRatio],
    ["/dashboard (signed in)", dashboardLcp, BUDGET.dashboardLcpRatio],
  ] as const) {
    record({
      group,
      figure: `${label} Largest Contentful Paint, median of ${l.loads}${l.without ? ` (${l.without} without an entry)` : ""}, min ${l.min.toFixed(0)} max ${l.max.toFixed(0)}`,
      value: Math.round(l.median),
      unit: "ms",
      budget: { kind: "max", value: BUDGET.lcpMs },
      baseline: { label: "GET /healthz in the same browser", value: Math.round(healthzLcp.median) },
      maxRatio,
    });
  }
  record({
    group,
    figure: "GetBundleByKey p50, one client, sequential",
    value: Number(lookupP50.toFixed(2)),
    unit: "ms",
    baseline: { label: "GET /healthz", value: Number(healthzP50.toFixed(2)) },
  });
  record({
    group,
    figure: `GetBundleByKey p99, ${CLIENTS} clients at 1 request/s each, their starts spread over 1 s (${paced.requests} answers, ${paced.failures} failed)`,
    value: Number(paced.p99.toFixed(1)),
    unit: "ms",
    budget: { kind: "max", value: BUDGET.lookupP99Ms },
    baseline: { label: "GET /healthz, same load", value: Number(pacedHealthz.p99.toFixed(1)) },
  });
  record({
    group,
    figure: `GetBundleByKey p99, ${CLIENTS} clients back to back (${Math.round(backToBack.perSecond)}/s)`,
    value: Number(backToBack.p99.toFixed(1)),
    unit: "ms",
  });

  console.log(
    `/req and /dashboard on loopback (PGlite, ${CLIENTS} lookup clients for ${LOAD_MS / 1000} s each, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end)`,
  );
  console.log("| figure | value | budget |");
  console.log("|---|---|---|");
  for (const [label, s, budget] of js) {
    console.log(
      `| ${label}: JavaScript gzipped (${s.files} files, ${s.rawKb.toFixed(0)} KB raw) | ${s.gzipKb.toFixed(1)} KB | ${budget ? `< ${budget} KB` : "-"} |`,
    );
  }
  const ratioOf = (l: { median: number }) => l.median / healthzLcp.median;
  console.log(
    `| /req?k=KEY Largest Contentful Paint, median | ${reqLcp.median.toFixed(0)} ms, ${ratioOf(reqLcp).toFixed(2)}x /healthz | < ${BUDGET.lcpMs} ms, <= ${BUDGET.reqLcpRatio}x /healthz |`,
  );
  console.log(
    `| /dashboard Largest Contentful Paint, median | ${dashboardLcp.median.toFixed(0)} ms, ${ratioOf(dashboardLcp).toFixed(2)}x /healthz | < ${BUDGET.lcpMs} ms, <= ${BUDGET.dashboardLcpRatio}x /healthz |`,
  );
  console.log(
    `| GET /healthz Largest Contentful Paint, median (the baseline) | ${healthzLcp.median.toFixed(0)} ms | - |`,
  );
  console.log(
    `| GetBundleByKey p50, one client (GET /healthz ${healthzP50.toFixed(2)} ms) | ${lookupP50.toFixed(2)} ms | - |`,
  );
  // The budget is the paced clients' (as recorded above); back to back is a measure of capacity.
  for (const [label, r, budgeted] of [
    ["lookups back to back", backToBack, false],
    ["lookups, 1 s between a client's requests", paced, true],
    ["GET /healthz, 1 s between a client's requests", pacedHealthz, false],
  ] as const) {
    console.log(
      `| ${label}: p50 / p99 (${r.requests} answers, ${r.perSecond.toFixed(0)}/s, ${r.failures} failed) | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} ms | ${budgeted ? `p99 < ${BUDGET.lookupP99Ms} ms` : "-"} |`,
    );
  }

  // The budgets the pages are held to, as ratios: each page's paint over that of GET /healthz.
  console.log(
    `\nLargest Contentful Paint against GET /healthz in the same browser (medians of ${LCP_LOADS} fresh loads${CPU_SLOWDOWN > 1 ? `, the browser's processor ${CPU_SLOWDOWN}x slower` : ""}):`,
  );
  for (const [label, l, maxRatio] of [
    ["/req?k=KEY", reqLcp, BUDGET.reqLcpRatio],
    ["/dashboard (signed in)", dashboardLcp, BUDGET.dashboardLcpRatio],
  ] as const) {
    const ratio = ratioOf(l);
    console.log(
      `  ${label.padEnd(24)} ${l.median.toFixed(0)} ms / ${healthzLcp.median.toFixed(0)} ms = ${ratio.toFixed(2)}x, budget <= ${maxRatio}x: ${ratio <= maxRatio ? "within" : "OVER"}`,
    );
  }

  const over = [
    scripts.empty.gzipKb > BUDGET.reqJsGzipKb && "/req JavaScript",
    scripts.dashboard.gzipKb > BUDGET.dashboardJsGzipKb && "dashboard JavaScript",
    reqLcp.median > BUDGET.lcpMs && "/req Largest Contentful Paint",
    ratioOf(reqLcp) > BUDGET.reqLcpRatio && "/req Largest Contentful Paint against /healthz",
    dashboardLcp.median > BUDGET.lcpMs && "dashboard Largest Contentful Paint",
    ratioOf(dashboardLcp) > BUDGET.dashboardLcpRatio && "dashboard Largest Contentful Paint against /healthz",
    paced.p99 > BUDGET.lookupP99Ms && "lookup p99 (paced)",
  ].filter(Boolean);
  if (over.length > 0) {
    console.error(`over budget: ${over.join(", ")}`);
    process.exitCode = 1;
  }
} finally {
  // npm may exit before what it started, so the whole group is stopped either way.
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // The group has ended already.
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  rmSync(workDir, { recursive: true, force: true });
}
