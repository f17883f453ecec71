import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { parseLogFile } from "../../apps/server/src/cloud/aws/trail-file";
import { classifyAudit } from "../../apps/server/src/modules/event/classify";
import { findConnectorAnyTenant } from "../../apps/server/src/modules/event/fetch-repository";
import { loadClassifyContext } from "../../apps/server/src/modules/event/load-classify-context";
import { fetchOrganizationTrail } from "../../apps/server/src/modules/event/trail-fetch";
import { motoAvailable, startMotoServer } from "../../apps/server/test/support/moto-server";
import {
  cloudTrailRecord,
  createTrailBucketIn,
  gzipLogFile,
  logFileKey,
  putObject,
  testS3,
} from "../../apps/server/test/support/trail-objects";
import { type Figure, record } from "../support/results";
import {
  BUCKET,
  benchProvider,
  denialMessage,
  memberAccounts,
  openBenchOrganisation,
  startFileS3,
} from "./setup";

/**
 * Organisation-trail ingest end to end: log files in the layout AWS documents, served by a
 * file-backed S3 endpoint in its own process (`file-s3.ts`), or by moto's S3 with
 * BENCH_TRAIL_S3=moto (`moto_server`, whose Python process bounds the read rate), read by the connector's trail reader
 * (list, get, gunzip, parse), classified against a PREVENT guardrail on the organisation root and
 * stored (events, the file ledger, the position) in PGlite, against a plain gunzip + `JSON.parse`
 * of the same files in the same run.
 *   BENCH_TRAIL_ACCOUNTS (10) x 2 regions x BENCH_TRAIL_FILES (10 per prefix) x
 *   BENCH_TRAIL_RECORDS (500 per file); 0.1% of the records are SCP denials.
 */
const ACCOUNTS = Number(process.env.BENCH_TRAIL_ACCOUNTS ?? 10);
const FILES = Number(process.env.BENCH_TRAIL_FILES ?? 10);
const PER_FILE = Number(process.env.BENCH_TRAIL_RECORDS ?? 500);
const REGIONS = ["us-east-1", "eu-west-1"];
const DENIAL_EVERY = 1000;

const USE_MOTO = process.env.BENCH_TRAIL_S3 === "moto";
if (USE_MOTO && !motoAvailable()) {
  console.error("moto_server is not on PATH: install moto[server], or run with the file-backed S3.");
  process.exit(1);
}

/** A `process.cpuUsage` difference in milliseconds (every thread of this process). */
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

const dir = mkdtempSync(join(tmpdir(), "palisade-trail-bench-"));
const objects = join(dir, "objects");
let stopS3 = async () => {};

/** moto's S3, the files put into it. */
async function motoS3(files: { key: string; body: Uint8Array }[]) {
  const moto = await startMotoServer();
  const s3 = testS3(moto.url);
  await createTrailBucketIn(s3, BUCKET);
  for (const f of files) await putObject(s3, BUCKET, f.key, f.body);
  return { url: moto.url, stop: moto.stop, name: "moto S3" };
}

/** The file-backed S3 endpoint, the files written where it serves them from. */
async function fileS3(files: { key: string; body: Uint8Array }[]) {
  for (const f of files) {
    const path = join(objects, BUCKET, ...f.key.split("/"));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.body);
  }
  return startFileS3(objects);
}

const accounts = memberAccounts(ACCOUNTS);
const { handle, connectorId, deps } = await openBenchOrganisation(dir, accounts);
try {
  // The organisation trail's files: delivered over the last hours, every account and region.
  const files: { key: string; body: Uint8Array }[] = [];
  const bodies: Uint8Array[] = [];
  const now = Date.now();
  let n = 0;
  for (const account of accounts)
    for (const region of REGIONS)
      for (let f = 0; f < FILES; f += 1) {
        const delivered = new Date(now - (FILES - f) * 5 * 60_000);
        const records = Array.from({ length: PER_FILE }, (_, i) => {
          n += 1;
          const time = new Date(delivered.getTime() - (PER_FILE - i) * 100);
          return n % DENIAL_EVERY === 0
            ? cloudTrailRecord({
                account,
                region,
                time,
                eventSource: "s3.amazonaws.com",
                eventName: "PutAccountPublicAccessBlock",
                errorCode: "AccessDenied",
                errorMessage: denialMessage(account),
              })
            : cloudTrailRecord({
                account,
                region,
                time,
                requestParameters: { filter: [{ name: "instance-state-name" }] },
              });
        });
        const body = gzipLogFile(records);
        bodies.push(body);
        files.push({ key: logFileKey("", account, region, delivered), body });
      }
  const total = n;
  const s3 = USE_MOTO ? await motoS3(files) : await fileS3(files);
  stopS3 = s3.stop;

  // Baseline: the same files, already in memory, gunzipped and parsed.
  let parsed = 0;
  const baselineCpu = process.cpuUsage();
  const b0 = performance.now();
  for (const body of bodies)
    parsed += (JSON.parse(gunzipSync(body).toString("utf8")) as { Records: unknown[] }).Records.length;
  const baselineMs = performance.now() - b0;
  const baselineCpuMs = cpuMs(process.cpuUsage(baselineCpu));

  const provider = benchProvider(s3.url);
  const row = await findConnectorAnyTenant(deps.db, connectorId);
  if (!row || !provider.trail) throw new Error("no connector");
  // Where the end-to-end time goes: the reader alone (list, get, gunzip, parse; nothing stored),
  // read first, so the endpoint and the reader are as warm for the ingest as a running server's;
  // the classification of the same records, after the ingest, so its records are not in the heap
  // the ingest collects.
  const r0 = performance.now();
  const readOnly = await provider.trail.read(undefined, { filesOf: async () => new Map() }, async () => {});
  const readMs = performance.now() - r0;

  const ingestCpu = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await fetchOrganizationTrail(deps, row, provider.trail);
  const ingestMs = performance.now() - t0;
  const ingestCpuMs = cpuMs(process.cpuUsage(ingestCpu));

  const ctx = await loadClassifyContext(deps, row, "aws");
  const records = bodies.flatMap((b, i) => parseLogFile(b, String(i)).records);
  const c0 = performance.now();
  for (const r of records) classifyAudit(r, ctx);
  const classifyMs = performance.now() - c0;
  provider.close();
  if (outcome.records !== total || parsed !== total || readOnly.records !== total)
    throw new Error(`read ${outcome.records} and parsed ${parsed} of ${total} records`);
  const expectedEvents = Math.floor(total / DENIAL_EVERY);
  if (outcome.events !== expectedEvents)
    throw new Error(`stored ${outcome.events} events, expected ${expectedEvents}`);

  const baselineRate = total / (baselineMs / 1000);
  const ingestRate = total / (ingestMs / 1000);
  const figures: Figure[] = [
    {
      group: "trail-ingest",
      figure: `gunzip + JSON.parse of ${bodies.length} log files (in memory)`,
      value: baselineRate,
      unit: "records/s",
    },
    {
      group: "trail-ingest",
      figure: `trail reader alone: list, get (${s3.name}), gunzip, parse`,
      value: total / (readMs / 1000),
      unit: "records/s",
    },
    {
      group: "trail-ingest",
      figure: "classification alone (1 PREVENT guardrail on the root)",
      value: total / (classifyMs / 1000),
      unit: "records/s",
    },
    {
      group: "trail-ingest",
      figure: `organisation-trail ingest: list, get (${s3.name}), gunzip, parse, classify, store (PGlite); ${total.toLocaleString("en")} records in ${bodies.length} files, ${ACCOUNTS} accounts x ${REGIONS.length} regions`,
      value: ingestRate,
      unit: "records/s",
      budget: { kind: "min", value: 20_000 },
      baseline: { label: "gunzip + JSON.parse", value: baselineRate },
      minRatio: 0.5,
    },
  ];
  for (const figure of figures) record({ ...figure, load: loadavg()[0] });
  const pass = ingestRate >= 20_000 && ingestRate / baselineRate >= 0.5;
  console.log(`| figure | value | budget | ratio |\n|---|---|---|---|`);
  for (const f of figures.slice(0, 3))
    console.log(`| ${f.figure} | ${Math.round(f.value).toLocaleString("en")} records/s | - | - |`);
  console.log(
    `| ${figures[3]?.figure} | ${Math.round(ingestRate).toLocaleString("en")} records/s (${(ingestMs / 1000).toFixed(2)} s, ${outcome.events} events) | >= 20,000 records/s and >= 0.5x | ${(ingestRate / baselineRate).toFixed(2)}x ${pass ? "pass" : "FAIL"} |`,
  );
  // On a shared machine the elapsed times depend on what else runs; the process's CPU time does
  // not (the S3 endpoint's process is not counted: it stands for S3).
  console.log(
    `CPU time of this process: gunzip + JSON.parse ${(baselineCpuMs / 1000).toFixed(2)} s, ingest ${(ingestCpuMs / 1000).toFixed(2)} s: ${Math.round(total / (ingestCpuMs / 1000)).toLocaleString("en")} records per CPU-second, ${(baselineCpuMs / ingestCpuMs).toFixed(2)}x (load average ${loadavg()[0]?.toFixed(1)})`,
  );
  process.exitCode = pass ? 0 : 1;
} finally {
  await handle.close();
  await stopS3();
  rmSync(dir, { recursive: true, force: true });
}
