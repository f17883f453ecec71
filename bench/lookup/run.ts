import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { promisify } from "node:util";
import { percentile } from "../support/percentile";
import { record } from "../support/results";

/**
 * The public key lookup (`GetBundleByKey`, what `/req?k=KEY` asks) against `GET /healthz` on the
 * same server, which does the least any answer can (it pings the database): the server, the
 * clients and this script each run in their own process. Per round: one client's p50 over
 * `BENCH_CALLS` sequential calls, and the p99 of `BENCH_CLIENTS` clients at one call a second
 * each for `BENCH_MS`, of each route in turn (the order alternates between rounds), plus the
 * server's processor time per answer. The figures are the medians over `BENCH_ROUNDS` rounds of
 * each ratio to `/healthz`. Budget: both ratios within 1.5x; exits non-zero above.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const LOAD_MS = Number(process.env.BENCH_MS ?? 10_000);
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

interface Load {
  answers: number;
  failures: number;
  p50: number;
  p99: number;
  cpuMsPerAnswer: number;
}
const exec = promisify(execFile);
async function load(target: "lookup" | "healthz", mode: "sequential" | "paced"): Promise<Load> {
  const cpuBefore = serverCpuMs();
  const { stdout } = await exec("npx", ["tsx", "lookup/load.ts", url, target, mode], {
    cwd: benchDir,
    env: {
      ...process.env,
      BENCH_KEY: key,
      BENCH_CALLS: String(CALLS),
      BENCH_CLIENTS: String(CLIENTS),
      BENCH_MS: String(LOAD_MS),
    },
  });
  const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Omit<Load, "cpuMsPerAnswer">;
  return { ...result, cpuMsPerAnswer: (serverCpuMs() - cpuBefore) / Math.max(1, result.answers) };
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
    Number.NaN,
  );

try {
  // Warm both routes (the key's card is cached after its first lookup, the code paths compiled).
  await load("lookup", "sequential");
  await load("healthz", "sequential");
  const rounds: { single: Record<string, Load>; paced: Record<string, Load>; load: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (["healthz", "lookup"] as const) : (["lookup", "healthz"] as const);
    const single: Record<string, Load> = {};
    const paced: Record<string, Load> = {};
    for (const target of order) single[target] = await load(target, "sequential");
    for (const target of order) paced[target] = await load(target, "paced");
    rounds.push({ single, paced, load: loadavg()[0] ?? 0 });
    const s = (l?: Load) => `${l?.p50.toFixed(2)}${l?.failures ? ` (${l.failures} failed)` : ""}`;
    const p = (l?: Load) => `${l?.p99.toFixed(1)} (${l?.answers} answers, ${l?.failures} failed)`;
    console.log(
      `round ${round + 1}: one client p50 lookup ${s(single.lookup)} / healthz ${s(single.healthz)} ms; ` +
        `${CLIENTS} clients p99 lookup ${p(paced.lookup)} / healthz ${p(paced.healthz)} ms; load ${loadavg()[0]?.toFixed(1)}`,
    );
  }

  const ratio = (kind: "single" | "paced", q: "p50" | "p99") =>
    median(rounds.map((r) => (r[kind].lookup?.[q] ?? Number.NaN) / (r[kind].healthz?.[q] ?? Number.NaN)));
  const of = (kind: "single" | "paced", target: string, q: keyof Load) =>
    median(rounds.map((r) => r[kind][target]?.[q] ?? Number.NaN));
  const singleRatio = ratio("single", "p50");
  const pacedRatio = ratio("paced", "p99");
  const failures = rounds.reduce(
    (sum, r) => sum + (r.paced.lookup?.failures ?? 0) + (r.single.lookup?.failures ?? 0),
    0,
  );

  const group = `public key lookup (${ENGINE})`;
  record({
    group,
    figure: "GetBundleByKey p50, one client, sequential (median of rounds)",
    value: Number(of("single", "lookup", "p50").toFixed(2)),
    unit: "ms",
    baseline: { label: "GET /healthz", value: Number(of("single", "healthz", "p50").toFixed(2)) },
  });
  record({
    group,
    figure: `GetBundleByKey p99, ${CLIENTS} clients at 1 request/s each (median of rounds)`,
    value: Number(of("paced", "lookup", "p99").toFixed(1)),
    unit: "ms",
    baseline: { label: "GET /healthz, same load", value: Number(of("paced", "healthz", "p99").toFixed(1)) },
  });

  console.log(
    `\npublic key lookup on ${ENGINE}: ${ROUNDS} rounds, ${CALLS} sequential calls and ${CLIENTS} clients x ${LOAD_MS / 1000} s per route and round, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end`,
  );
  console.log(
    "| figure (median of rounds) | GetBundleByKey | GET /healthz | ratio (median of the rounds' ratios) | budget |",
  );
  console.log("|---|---|---|---|---|");
  console.log(
    `| p50, one client | ${of("single", "lookup", "p50").toFixed(2)} ms | ${of("single", "healthz", "p50").toFixed(2)} ms | ${singleRatio.toFixed(2)}x | <= ${BUDGET_RATIO}x |`,
  );
  console.log(
    `| p99, ${CLIENTS} clients at 1/s | ${of("paced", "lookup", "p99").toFixed(1)} ms | ${of("paced", "healthz", "p99").toFixed(1)} ms | ${pacedRatio.toFixed(2)}x | <= ${BUDGET_RATIO}x |`,
  );
  console.log(
    `| p50, ${CLIENTS} clients at 1/s | ${of("paced", "lookup", "p50").toFixed(1)} ms | ${of("paced", "healthz", "p50").toFixed(1)} ms | - | - |`,
  );
  console.log(
    `| server processor time per answer, ${CLIENTS} clients | ${of("paced", "lookup", "cpuMsPerAnswer").toFixed(3)} ms | ${of("paced", "healthz", "cpuMsPerAnswer").toFixed(3)} ms | - | - |`,
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
