import { percentile } from "../support/percentile";

/**
 * One load of the lookup benchmark, in its own process so that the clients' work is not the
 * server's. Both routes are measured in the same window, through the same connection pool, with
 * the same pacing, so that whatever slows the machine meanwhile slows both alike:
 *
 * - `sequential`: one client sends `BENCH_CALLS` pairs of requests one after another (one
 *   connection), a lookup and a `/healthz` in each pair, which goes first alternating.
 * - `paced`: `BENCH_CLIENTS` clients, each sending one request a second (on a fixed schedule,
 *   whatever the answers take), their starts spread evenly over the first second as independent
 *   requesters arrive, for `BENCH_MS`; each client alternates between the routes call by call,
 *   neighbouring clients starting with different ones, so in every second half the calls are
 *   lookups and half `/healthz`, mixed in time, and a stall of the machine or of the server meets
 *   both alike. The server's load is `BENCH_CLIENTS` calls a second. With `BENCH_SLICE_MS`, the
 *   clients instead call one route for that long, then the other (what one route's calls leave
 *   behind then falls on its own slices; on a loaded machine, stalls of seconds fall on one).
 * - `only`: `BENCH_CALLS` sequential requests to the route named by the next argument alone (the
 *   server's processor time per answer of one route is read around it).
 *
 * Each client presents its own address (the server trusts the proxy header), so each has its own
 * public rate limit, as real visitors do. Prints one line of JSON: per route, answers, failures,
 * p50, p99 and (paced) every latency in ms, for the runner to pool rounds.
 */
type Target = "lookup" | "healthz";
const [url, mode, only] = process.argv.slice(2) as [string, "sequential" | "paced" | "only", Target?];
const key = process.env.BENCH_KEY ?? "";
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const LOAD_MS = Number(process.env.BENCH_MS ?? 20_000);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 0);
/** Which route the paced clients call first (the runner alternates it by round). */
const FIRST: Target = process.env.BENCH_FIRST === "lookup" ? "lookup" : "healthz";

const body = JSON.stringify({ key });
const addressOf = (client: number) => `198.18.${Math.floor(client / 250)}.${(client % 250) + 1}`;

function send(target: Target, client: number): Promise<Response> {
  const forwarded = { "x-forwarded-for": addressOf(client) };
  return target === "healthz"
    ? fetch(`${url}/healthz`, { headers: forwarded })
    : fetch(`${url}/palisade.policy.v1.PolicyService/GetBundleByKey`, {
        method: "POST",
        headers: { "content-type": "application/json", "connect-protocol-version": "1", ...forwarded },
        body,
      });
}

const latencies: Record<Target, number[]> = { lookup: [], healthz: [] };
const failures: Record<Target, number> = { lookup: 0, healthz: 0 };
async function timed(target: Target, client: number): Promise<void> {
  const start = performance.now();
  try {
    const response = await send(target, client);
    await response.arrayBuffer();
    if (response.ok) latencies[target].push(performance.now() - start);
    else failures[target]++;
  } catch {
    failures[target]++;
  }
}

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

// The sequential calls come from 100 visitors' addresses in turn, so that each stays within its
// public limit (10 a second by default).
const sequentialClient = (i: number) => 1_000 + (i % 100);
if (mode === "only" && only) {
  for (let i = 0; i < CALLS; i++) await timed(only, sequentialClient(i));
} else if (mode === "sequential") {
  for (let i = 0; i < CALLS; i++) {
    const pair: Target[] = i % 2 === 0 ? ["lookup", "healthz"] : ["healthz", "lookup"];
    for (const target of pair) await timed(target, sequentialClient(i));
  }
} else {
  const began = performance.now();
  const stopAt = began + LOAD_MS;
  const second: Target = FIRST === "lookup" ? "healthz" : "lookup";
  const targetAt = (at: number, client: number, call: number) =>
    (SLICE_MS > 0 ? Math.floor((at - began) / SLICE_MS) : client + call) % 2 === 0 ? FIRST : second;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      // Client n calls at began + n/CLIENTS s, then once a second on that schedule; a late answer
      // does not shift it, as real requesters do not wait for each other.
      let call = 0;
      for (let at = began + (client * 1000) / CLIENTS; at < stopAt; at += 1000) {
        await sleepUntil(at);
        await timed(targetAt(at, client, call++), client);
      }
    }),
  );
}

const summary = (target: Target) => {
  const sorted = latencies[target].sort((a, b) => a - b);
  return {
    answers: sorted.length,
    failures: failures[target],
    p50: percentile(sorted, 0.5, Number.NaN),
    p99: percentile(sorted, 0.99, Number.NaN),
    ...(mode === "paced" ? { latencies: sorted.map((ms) => Math.round(ms * 100) / 100) } : {}),
  };
};
console.log(JSON.stringify({ lookup: summary("lookup"), healthz: summary("healthz") }));
