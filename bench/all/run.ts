import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { type Figure, passes } from "../support/results";

/**
 * Every benchmark with short defaults, then one table of all figures: value, budget, the ratio
 * to a same-run baseline where there is one, pass/fail. A benchmark's own settings (BENCH_*) in
 * the environment override the short defaults below. Exits non-zero when a budget fails.
 */
const SHORT: [string, Record<string, string>][] = [
  ["policy-eval", { BENCH_MS: "1000" }],
  ["waiver", { BENCH_ROUNDS: "4" }],
  ["deploy", { BENCH_ROUNDS: "4" }],
  ["events", { BENCH_EVENTS: "1000000", BENCH_INGEST: "100000", BENCH_RUNS: "20" }],
  ["memory", { BENCH_MEMORY_EVENTS: "1000000" }],
  ["req", { BENCH_MS: "3000", BENCH_CLIENTS: "50", BENCH_LCP_LOADS: "7" }],
  ["impact-preview", { BENCH_PREVIEW_ACTIONS: "50000", BENCH_PREVIEW_LOOKUPS_PER_SECOND: "100000" }],
  ["jobs", { BENCH_JOB_EVENTS: "1000000", BENCH_ROUNDS: "3" }],
  ["trail-ingest", { BENCH_TRAIL_ACCOUNTS: "10", BENCH_TRAIL_FILES: "10", BENCH_TRAIL_RECORDS: "500" }],
  ["trail-catch-up", { BENCH_CATCHUP_RECORDS: "200000", BENCH_CATCHUP_ACCOUNTS: "10" }],
];
// `--from a.jsonl b.jsonl`: print the table of figures recorded earlier (BENCH_RESULTS files)
// instead of running the benchmarks.
const fromAt = process.argv.indexOf("--from");
const fromFiles = fromAt >= 0 ? process.argv.slice(fromAt + 1) : [];
const only = fromAt >= 0 ? [] : process.argv.slice(2);
const root = new URL("../..", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "palisade-bench-"));
const results = join(work, "results.jsonl");
const failedRuns: string[] = [];
const started = performance.now();
const loadAtStart = loadavg();

for (const [name, defaults] of SHORT) {
  if (fromFiles.length > 0 || (only.length > 0 && !only.includes(name))) continue;
  const env = { ...defaults, ...process.env, BENCH_RESULTS: results };
  const t = performance.now();
  console.error(`\n== ${name} (load average ${loadavg()[0]?.toFixed(1)})`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn("npm", ["run", "--silent", "-w", "@palisade/bench", name], {
      cwd: root,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("exit", (c) => resolve(c ?? 1));
  });
  console.error(`== ${name}: ${Math.round((performance.now() - t) / 1000)} s, exit ${code}`);
  // A benchmark exits non-zero when a figure is over budget; the table says which.
  if (code !== 0) failedRuns.push(name);
}

const figures: Figure[] = (fromFiles.length > 0 ? fromFiles : [results])
  .filter((file) => existsSync(file))
  .flatMap((file) => readFileSync(file, "utf8").trim().split("\n").filter(Boolean))
  .map((line) => JSON.parse(line) as Figure);
rmSync(work, { recursive: true, force: true });

// A figure a benchmark could not take is recorded as NaN, which JSON writes as null.
const number = (n: number | null) =>
  n === null || !Number.isFinite(n)
    ? "not measured"
    : n.toLocaleString("en", { maximumFractionDigits: n < 10 ? 2 : 1 });
console.log(
  `\nPalisade benchmarks, ${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}`,
);
console.log(
  `load average at start ${loadAtStart.map((n) => n.toFixed(1)).join(" ")}, at the end ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}; ${Math.round((performance.now() - started) / 1000)} s\n`,
);
console.log("| group | figure | value | budget | baseline (same run) | ratio | load | result |");
console.log("|---|---|---|---|---|---|---|---|");
let failures = 0;
for (const f of figures) {
  const pass = passes(f);
  if (pass === false) failures++;
  console.log(
    [
      "",
      f.group,
      f.figure,
      `${number(f.value)} ${f.unit}`,
      [
        f.budget ? `${f.budget.kind === "max" ? "<" : ">="} ${number(f.budget.value)} ${f.unit}` : "",
        f.minRatio ? `>= ${f.minRatio}x baseline` : "",
        f.maxRatio ? `<= ${f.maxRatio}x baseline` : "",
      ]
        .filter(Boolean)
        .join(", ") || "-",
      f.baseline ? `${f.baseline.label}: ${number(f.baseline.value)} ${f.unit}` : "-",
      f.baseline ? `${(f.value / f.baseline.value).toFixed(2)}x` : "-",
      f.load?.toFixed(1) ?? "-",
      pass === undefined ? "-" : pass ? "pass" : "FAIL",
      "",
    ]
      .join(" | ")
      .trim(),
  );
}
console.log(
  `\n${figures.length} figures, ${failures} over budget${failedRuns.length ? `; benchmarks that exited non-zero: ${failedRuns.join(", ")}` : ""}`,
);
if (failures > 0 || failedRuns.length > 0) process.exitCode = 1;
