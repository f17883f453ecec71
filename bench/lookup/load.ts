import { percentile } from "../support/percentile";

/**
 * One load of the lookup benchmark, in its own process so that the clients' work is not the
 * server's: `sequential` sends `BENCH_CALLS` requests one after another from one client (one
 * connection);
 * `paced` runs `BENCH_CLIENTS` clients sending one request a second each (on a fixed schedule,
 * whatever the answers take), their starts spread evenly over the first second as independent
 * requesters arrive, for `BENCH_MS`. Each client presents its own address (the server trusts the
 * proxy header), so each has its own public rate limit, as real visitors do. Prints one line of
 * JSON: answers, failures, p50 and p99 in ms.
 */
const [url, target, mode] = process.argv.slice(2) as [string, "lookup" | "healthz", "sequential" | "paced"];
const key = process.env.BENCH_KEY ?? "";
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const LOAD_MS = Number(process.env.BENCH_MS ?? 10_000);

const body = JSON.stringify({ key });
const addressOf = (client: number) => `198.18.${Math.floor(client / 250)}.${(client % 250) + 1}`;

function send(client: number): Promise<Response> {
  const forwarded = { "x-forwarded-for": addressOf(client) };
  return target === "healthz"
    ? fetch(`${url}/healthz`, { headers: forwarded })
    : fetch(`${url}/palisade.policy.v1.PolicyService/GetBundleByKey`, {
        method: "POST",
        headers: { "content-type": "application/json", "connect-protocol-version": "1", ...forwarded },
        body,
      });
}

const latencies: number[] = [];
let failures = 0;
async function timed(client: number): Promise<void> {
  const start = performance.now();
  const response = await send(client);
  await response.arrayBuffer();
  if (response.ok) latencies.push(performance.now() - start);
  else failures++;
}

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

if (mode === "sequential") {
  // One connection's calls one after another, as fast as they are answered: from 100 visitors'
  // addresses in turn, so that each stays within its public limit (10 a second by default).
  for (let i = 0; i < CALLS; i++) await timed(1_000 + (i % 100));
} else {
  const began = performance.now();
  const stopAt = began + LOAD_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      // Client n sends at began + n/CLIENTS s, then once a second on that schedule; a late answer
      // does not shift the schedule, as real requesters do not wait for each other.
      for (let at = began + (client * 1000) / CLIENTS; at < stopAt; at += 1000) {
        await sleepUntil(at);
        await timed(client);
      }
    }),
  );
}
latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    answers: latencies.length,
    failures,
    p50: percentile(latencies, 0.5, Number.NaN),
    p99: percentile(latencies, 0.99, Number.NaN),
  }),
);
