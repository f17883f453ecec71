#!/usr/bin/env node
// Start-up time of a server command: from spawning it to `/readyz` answering 200, over several
// runs, each on a fresh data folder (first start: migrations, the Default tenant, the catalogue)
// and then once more on that folder (a restart).
//
//   node scripts/time-to-ready.mjs [--runs 3] [--port 42310] [--cwd DIR] -- node dist/server/main.mjs
//
// The command gets PORT, HOST=127.0.0.1, DATA_DIR (a fresh temporary folder per run),
// SANDBOX_PORT (port + 1) and CI=true on top of the current environment (DATABASE_URL too, if set,
// so point it at an empty database yourself).
//
// Besides the wall-clock time it reports the CPU time the command's processes had used when it
// became ready (Linux /proc): on a busy shared machine the wall clock mostly measures the others.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "3" },
    port: { type: "string", default: "42310" },
    cwd: { type: "string", default: process.cwd() },
  },
});
if (positionals.length === 0) {
  console.error("Usage: node scripts/time-to-ready.mjs [--runs N] [--port P] [--cwd DIR] -- COMMAND...");
  process.exit(2);
}
const port = Number(values.port);

const TICKS_PER_SECOND = 100;

/** User and system CPU seconds of a process and all its descendants, from /proc. */
function cpuSeconds(rootPid) {
  const stats = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command name, which is in parentheses and may contain spaces.
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ");
      stats.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended meanwhile.
    }
  }
  let ticks = 0;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift();
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) queue.push(child);
  }
  return ticks / TICKS_PER_SECOND;
}

async function startOnce(dataDir) {
  const started = performance.now();
  const child = spawn(positionals[0], positionals.slice(1), {
    cwd: values.cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SANDBOX_PORT: String(port + 1),
      CI: "true",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) return { seconds: (performance.now() - started) / 1000, cpu: cpuSeconds(child.pid) };
      if (performance.now() - started > 180_000)
        throw new Error(`not ready after 180 s: ${stderr.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

const first = [];
const restart = [];
for (let run = 0; run < Number(values.runs); run++) {
  const dataDir = mkdtempSync(join(tmpdir(), "palisade-start-"));
  try {
    first.push(await startOnce(dataDir));
    restart.push(await startOnce(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(1);
function report(label, runs) {
  const wall = runs.map((run) => run.seconds);
  const cpu = runs.map((run) => run.cpu);
  console.log(
    `${label} wall ${wall.map((s) => s.toFixed(1)).join(", ")} s (median ${median(wall)}); ` +
      `CPU ${cpu.map((s) => s.toFixed(1)).join(", ")} s (median ${median(cpu)})`,
  );
}
report("first start:", first);
report("restart:    ", restart);
