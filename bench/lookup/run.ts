import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { promisify } from "node:util";
import { percentile } from "../support/percentile";
import { record } from "../support/results";

/**
 * The public key lookup (`GetBundleByKey`, what `/req?k=KEY` asks) against `GET /healthz` on the
 * same server, which does the least any answer can (it pings the database): the server, the
 * clients and this script each run in their own process. Both routes are measured in the same
 * window, interleaved (load.ts): per round, one client's p50 over `BENCH_CALLS` sequential pairs
 * of calls, and the p99 of `BENCH_CLIENTS` clients at one call a second for `BENCH_MS`, each
 * alternating between the routes call by call; then each route alone for the server's processor
 * time per answer (what the lookup's work costs the server, whoever's answers it delays). On a shared
 * machine a p99 is a few scheduler stalls: measured in separate windows, the routes' p99s met
 * different stalls and single rounds' ratios spanned 0.26-3.6x with nothing changed (in
 * alternating 2 s slices, 0.10-12x at load 24: stalls last seconds). The figures
 * are the medians over `BENCH_ROUNDS` rounds of each ratio to `/healthz`, with their spread, and
 * the p99 of all rounds' answers pooled. Budget: both median ratios within 1.5x; exits non-zero
 * above.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const LOAD_MS = Number(process.env.BENCH_MS ?? 20_000);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 0);
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const ENGINE = process.env.BENCH_ENGINE ?? "pglite";
const BUDGET_RATIO = 1.5;
// npx runs from the nearest package folder: bench/.
const benchDir = new URL("..", import.meta.url).pathname;

const server: ChildProcess = spawn("npx", ["tsx", "lookup/server.ts"], {
  cwd: benchDir,
  env: { ...process.env, BENCH_ENGINE: ENGINE },
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
const { url, key, pid } = await new Promise<{ url: string; key: string; pid: number }>((resolve, reject) => {
  let text = "";
  server.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    const line = text.split("\n").find((l) => l.startsWith('{"url"'));
    if (line) resolve(JSON.parse(line));
  });
  server.on("exit", (code) => reject(new Error(`the server exited (${code})`)));
});

/** The server process's processor time so far, in ms (user and system). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

type Target = "lookup" | "healthz";
interface Load {
  answers: number;
  failures: number;
  p50: number;
  p99: number;
  latencies?: number[];
}
type Both = Record<Target, Load>;
const exec = promisify(execFile);
async function load(mode: "sequential" | "paced" | "only", first: Target, ms = LOAD_MS): Promise<Both> {
  const { stdout } = await exec("npx", ["tsx", "lookup/load.ts", url, mode, first], {
    cwd: benchDir,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      BENCH_KEY: key,
      BENCH_CALLS: String(CALLS),
      BENCH_CLIENTS: String(CLIENTS),
      BENCH_MS: String(ms),
      BENCH_FIRST: first,
      BENCH_SLICE_MS: String(SLICE_MS),
    },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Both;
}
/** The server's processor time per answer of one route, called alone. */
async function cpuPerAnswer(target: Target): Promise<number> {
  const before = serverCpuMs();
  const result = await load("only", target);
  return (serverCpuMs() - before) / Math.max(1, result[target].answers);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 0.5, Number.NaN);
const spread = (values: number[]) => {
  const s = sorted(values);
  return `${s[0]?.toFixed(2)}-${s.at(-1)?.toFixed(2)}x`;
};

try {
  // Warm both routes (the key's card is cached after its first lookup, the code paths compiled,
  // the paced clients' connections opened and their first leases taken).
  await load("sequential", "lookup");
  await load("paced", "lookup", 4_000);
  const rounds: { single: Both; paced: Both; cpu: Record<Target, number>; load: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const first: Target = round % 2 === 0 ? "healthz" : "lookup";
    const single = await load("sequential", first);
    const paced = await load("paced", first);
    const cpu = { lookup: 0, healthz: 0 };
    for (const target of first === "lookup"
      ? (["lookup", "healthz"] as const)
      : (["healthz", "lookup"] as const))
      cpu[target] = await cpuPerAnswer(target);
    rounds.push({ single, paced, cpu, load: loadavg()[0] ?? 0 });
    const s = (l: Load) => `${l.p50.toFixed(2)}${l.failures ? ` (${l.failures} failed)` : ""}`;
    const p = (l: Load) => `${l.p99.toFixed(1)} (${l.answers} answers, ${l.failures} failed)`;
    console.log(
      `round ${round + 1}: one client p50 lookup ${s(single.lookup)} / healthz ${s(single.healthz)} ms; ` +
        `${CLIENTS} clients p99 lookup ${p(paced.lookup)} / healthz ${p(paced.healthz)} ms ` +
        `(${(paced.lookup.p99 / paced.healthz.p99).toFixed(2)}x); load ${loadavg()[0]?.toFixed(1)}`,
    );
  }

  const ratios = (kind: "single" | "paced", q: "p50" | "p99") =>
    rounds.map((r) => r[kind].lookup[q] / r[kind].healthz[q]);
  const of = (kind: "single" | "paced", target: Target, q: "p50" | "p99") =>
    median(rounds.map((r) => r[kind][target][q]));
  const pooled = (target: Target) =>
    percentile(sorted(rounds.flatMap((r) => r.paced[target].latencies ?? [])), 0.99, Number.NaN);
  const singleRatio = median(ratios("single", "p50"));
  const pacedRatio = median(ratios("paced", "p99"));
  const failures = rounds.reduce((sum, r) => sum + r.paced.lookup.failures + r.single.lookup.failures, 0);

  const group = `public key lookup (${ENGINE})`;
  record({
    group,
    figure: "GetBundleByKey p50, one client, sequential, interleaved with /healthz (median of rounds)",
    value: Number(of("single", "lookup", "p50").toFixed(2)),
    unit: "ms",
    baseline: { label: "GET /healthz", value: Number(of("single", "healthz", "p50").toFixed(2)) },
    maxRatio: BUDGET_RATIO,
  });
  record({
    group,
    figure: `GetBundleByKey p99, ${CLIENTS} clients at 1 request/s each, interleaved with /healthz (median of rounds)`,
    value: Number(of("paced", "lookup", "p99").toFixed(1)),
    unit: "ms",
    baseline: {
      label: "GET /healthz, same clients",
      value: Number(of("paced", "healthz", "p99").toFixed(1)),
    },
    maxRatio: BUDGET_RATIO,
  });

  console.log(
    `\npublic key lookup on ${ENGINE}: ${ROUNDS} rounds, ${CALLS} sequential pairs and ${CLIENTS} clients at one call a second for ${LOAD_MS / 1000} s (routes alternating ${SLICE_MS > 0 ? `every ${SLICE_MS / 1000} s` : "call by call"}) per round, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end`,
  );
  console.log("| figure | GetBundleByKey | GET /healthz | ratio: median of the rounds' (spread) | budget |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| p50, one client (median of rounds) | ${of("single", "lookup", "p50").toFixed(2)} ms | ${of("single", "healthz", "p50").toFixed(2)} ms | ${singleRatio.toFixed(2)}x (${spread(ratios("single", "p50"))}) | <= ${BUDGET_RATIO}x |`,
  );
  console.log(
    `| p99, ${CLIENTS} clients at 1/s (median of rounds) | ${of("paced", "lookup", "p99").toFixed(1)} ms | ${of("paced", "healthz", "p99").toFixed(1)} ms | ${pacedRatio.toFixed(2)}x (${spread(ratios("paced", "p99"))}) | <= ${BUDGET_RATIO}x |`,
  );
  console.log(
    `| p99, ${CLIENTS} clients at 1/s (all rounds' answers pooled) | ${pooled("lookup").toFixed(1)} ms | ${pooled("healthz").toFixed(1)} ms | ${(pooled("lookup") / pooled("healthz")).toFixed(2)}x | - |`,
  );
  console.log(
    `| p50, ${CLIENTS} clients at 1/s (median of rounds) | ${of("paced", "lookup", "p50").toFixed(1)} ms | ${of("paced", "healthz", "p50").toFixed(1)} ms | ${median(ratios("paced", "p50")).toFixed(2)}x | - |`,
  );
  console.log(
    `| server processor time per answer, each route alone (median of rounds) | ${median(rounds.map((r) => r.cpu.lookup)).toFixed(3)} ms | ${median(rounds.map((r) => r.cpu.healthz)).toFixed(3)} ms | - | - |`,
  );
  if (failures > 0) console.log(`${failures} lookups failed (refused or errors)`);
  const over = [
    singleRatio > BUDGET_RATIO && "one-client p50",
    pacedRatio > BUDGET_RATIO && "paced p99",
    failures > 0 && "failed lookups",
  ].filter(Boolean);
  if (over.length > 0) {
    console.error(`over budget: ${over.join(", ")}`);
    process.exitCode = 1;
  }
} finally {
  // Its own process group (npx and the server under it): stopped together.
  if (server.pid) process.kill(-server.pid, "SIGTERM");
}
