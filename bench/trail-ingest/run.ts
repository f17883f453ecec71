import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { createAwsProvider } from "../../apps/server/src/cloud/aws/aws-provider";
import { parseLogFile } from "../../apps/server/src/cloud/aws/trail-file";
import { openDatabase } from "../../apps/server/src/db/database";
import { connectors } from "../../apps/server/src/db/schema/connectors";
import { createLogger } from "../../apps/server/src/logger";
import { classifyAudit } from "../../apps/server/src/modules/event/classify";
import { findConnectorAnyTenant } from "../../apps/server/src/modules/event/fetch-repository";
import { loadClassifyContext } from "../../apps/server/src/modules/event/load-classify-context";
import { fetchOrganizationTrail } from "../../apps/server/src/modules/event/trail-fetch";
import { loadCatalogue } from "../../apps/server/src/modules/policy-definition/load-catalogue";
import { motoAvailable, startMotoServer } from "../../apps/server/test/support/moto-server";
import {
  cloudTrailRecord,
  createTrailBucketIn,
  gzipLogFile,
  logFileKey,
  ORG_ID,
  putObject,
  TEST_KEYS,
  testS3,
} from "../../apps/server/test/support/trail-objects";
import { type Figure, record } from "../support/results";

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
const MANAGEMENT = "100000000000";
const TENANT = "bench-tenant";
const ROOT = "r-bench";
const SCP_ID = "p-benchscp01";
const SLUG = "protect-s3-account-public-access-block";
const BUCKET = "bench-org-trail";
const DENIAL_EVERY = 1000;

const USE_MOTO = process.env.BENCH_TRAIL_S3 === "moto";
if (USE_MOTO && !motoAvailable()) {
  console.error("moto_server is not on PATH: install moto[server], or run with the file-backed S3.");
  process.exit(1);
}

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

/** The file-backed S3 endpoint (`file-s3.ts`) in a process of its own, serving the files from disk. */
async function fileS3(files: { key: string; body: Uint8Array }[]) {
  for (const f of files) {
    const path = join(objects, BUCKET, ...f.key.split("/"));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.body);
  }
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "file-s3.ts"), objects],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
    child.once("exit", (code) => reject(new Error(`file-s3 exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    name: "file-backed S3",
    stop: async () => {
      child.kill();
    },
  };
}

const handle = await openDatabase({ dataDir: dir });
await handle.migrate();
try {
  const { db } = handle;
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => String(200000000000 + i));
  await db.execute(sql`insert into organization (id, name, slug) values (${TENANT}, 'Bench', 'bench')`);
  const trail = {
    bucket: BUCKET,
    keyPrefix: "",
    bucketRegion: "us-east-1",
    readerRoleArn: "arn:aws:iam::300000000000:role/palisade-trail-reader",
    readerExternalId: "",
    backfillDays: 7,
  };
  const [connector] = await db
    .insert(connectors)
    .values({
      tenantId: TENANT,
      name: "Bench organisation",
      kind: "aws",
      status: "CONNECTED",
      config: {
        provider: "aws",
        managementAccountId: MANAGEMENT,
        roleArn: `arn:aws:iam::${MANAGEMENT}:role/palisade`,
        externalId: "bench",
        region: "us-east-1",
        trail,
      },
    })
    .returning();
  const connectorId = connector?.id ?? "";
  await db.execute(sql`
    insert into hierarchy_nodes (tenant_id, connector_id, provider, external_id, parent_external_id, name, type)
    select ${TENANT}, ${connectorId}, 'aws', id, parent, id, kind
    from (values (${ROOT}, null, 'AWS_ORGANIZATION_ROOT')) as root(id, parent, kind)
    union all
    select ${TENANT}, ${connectorId}, 'aws', a, ${ROOT}, a, 'AWS_ACCOUNT' from unnest(${sql.param(accounts)}::text[]) as a`);
  await db.execute(sql`
    insert into bundles (id, tenant_id, key, name, policy_slug, provider, mode, status, scopes, created_by)
    values ('bundle-1', ${TENANT}, 'BENCH1', 'S3 public access block', ${SLUG}, 'aws', 'PREVENT', 'DEPLOYED',
      ${JSON.stringify([{ externalId: ROOT, name: "Root" }])}::jsonb, 'bench')`);
  await db.execute(sql`
    insert into deployments (id, tenant_id, bundle_id, key, connector_id, scope, scope_external_id, mode, status, policy_slug, name, native_id, created_by)
    values ('dep-1', ${TENANT}, 'bundle-1', 'BENCH1', ${connectorId}, '{}'::jsonb, ${ROOT}, 'PREVENT', 'DEPLOYED', ${SLUG},
      'S3 public access block', ${SCP_ID}, 'bench')`);

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
                errorMessage: `User: arn:aws:sts::${account}:assumed-role/Deployer/deploy-session is not authorized to perform: s3:PutAccountPublicAccessBlock with an explicit deny in a service control policy: arn:aws:organizations::${MANAGEMENT}:policy/${ORG_ID}/service_control_policy/${SCP_ID}`,
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
  const b0 = performance.now();
  for (const body of bodies)
    parsed += (JSON.parse(gunzipSync(body).toString("utf8")) as { Records: unknown[] }).Records.length;
  const baselineMs = performance.now() - b0;

  const provider = createAwsProvider({
    endpoint: s3.url,
    region: "us-east-1",
    roleArn: `arn:aws:iam::${MANAGEMENT}:role/palisade`,
    externalId: "bench",
    managementAccountId: MANAGEMENT,
    consoleLinks: false,
    baseCredentials: TEST_KEYS,
    trail,
  });
  const row = await findConnectorAnyTenant(db, connectorId);
  if (!row || !provider.trail) throw new Error("no connector");
  const deps = { db, catalogue: loadCatalogue().catalogue, logger: createLogger("silent") };
  // Where the end-to-end time goes: the reader alone (list, get, gunzip, parse; nothing stored),
  // and the classification of the same records.
  const r0 = performance.now();
  const readOnly = await provider.trail.read(undefined, { filesOf: async () => new Map() }, async () => {});
  const readMs = performance.now() - r0;
  const ctx = await loadClassifyContext(deps, row, "aws");
  const records = bodies.flatMap((b, i) => parseLogFile(b, String(i)).records);
  const c0 = performance.now();
  for (const r of records) classifyAudit(r, ctx);
  const classifyMs = performance.now() - c0;

  const t0 = performance.now();
  const outcome = await fetchOrganizationTrail(deps, row, provider.trail);
  const ingestMs = performance.now() - t0;
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
  process.exitCode = pass ? 0 : 1;
} finally {
  await handle.close();
  await stopS3();
  rmSync(dir, { recursive: true, force: true });
}
