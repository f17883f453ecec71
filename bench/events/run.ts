import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../../apps/server/src/db/database";
import type { EventQuery } from "../../apps/server/src/modules/event/event-query";
import { COUNT_CAP, countEvents, listEvents } from "../../apps/server/src/modules/event/event-repository";
import {
  summarize,
  summarizeEvents,
  userNames,
} from "../../apps/server/src/modules/event/event-summary-repository";
import type { NewPolicyEvent } from "../../apps/server/src/modules/event/policy-event";
import { writeEvents } from "../../apps/server/src/modules/event/record-event";
import { fillEvents } from "../support/fill-events";
import { percentile } from "../support/percentile";
import { type Figure, record } from "../support/results";
import { classification } from "./classification";

/**
 * Event store figures: ingest rate through the pipeline's writer against a plain COPY of the same
 * rows (into the empty table, and into the filled one at the end), and the filtered, keyset-paged
 * events list and substring searches on a large table (PostgreSQL and PGlite).
 *   BENCH_EVENTS or `--events N` (1,000,000 rows in the list table), BENCH_INGEST (100,000 events
 *   written through the writer), BENCH_RUNS (queries per filter), TEST_DATABASE_URL (admin
 *   connection), BENCH_SKIP_PGLITE=1 (PostgreSQL only, e.g. for 10M rows).
 */
const argEvents = process.argv.indexOf("--events");
const TOTAL = Number(
  (argEvents >= 0 ? process.argv[argEvents + 1] : undefined) ?? process.env.BENCH_EVENTS ?? 1_000_000,
);
const INGEST = Number(process.env.BENCH_INGEST ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = process.env.BENCH_DB_NAME ?? "palisade_bench";
const TENANT = "bench-tenant";
const BUNDLES = 20;
const DAY_MS = 86_400_000;
const NOW = Date.parse("2026-06-01T00:00:00Z");
/** Events per `writeEvents` call, as one fetch of a busy connector writes them. */
const BATCH = 5000;
/** Between two events that arrive after the stored ones. */
const ARRIVAL_MS = 500;
const TYPES = ["PREVENTION", "PREVENTION", "PREVENTION", "ALERT", "ALERT", "WAIVED", "DRIFT"] as const;
const millions = `${(TOTAL / 1_000_000).toLocaleString("en")}M`;

const figures: Figure[] = [];
function add(figure: Figure) {
  const withLoad = { ...figure, load: loadavg()[0] };
  figures.push(withLoad);
  record(withLoad);
}

async function seedTenant(db: DatabaseHandle["db"]) {
  await db.execute(sql`insert into organization (id, name, slug) values (${TENANT}, 'Bench', 'bench')`);
  for (let b = 0; b < BUNDLES; b++) {
    const key = `BENCH${String.fromCharCode(65 + Math.floor(b / 10))}${b % 10}`;
    await db.execute(sql`
      insert into bundles (id, tenant_id, key, name, policy_slug, provider, mode, created_by)
      values (${`bundle-${b}`}, ${TENANT}, ${key}, ${`Bundle ${b}`}, 'deny-leave-organization', 'aws', 'PREVENT', 'bench')`);
    await db.execute(sql`
      insert into deployments (id, tenant_id, bundle_id, key, scope, scope_external_id, mode, policy_slug, name, created_by)
      values (${`dep-${b}`}, ${TENANT}, ${`bundle-${b}`}, ${key}, '{}'::jsonb, ${`ou-${b}`}, 'PREVENT',
        'deny-leave-organization', ${`Bundle ${b}`}, 'bench')`);
  }
}

/**
 * Event `i` of the synthetic data: spread over the 90 days before NOW, or, given `arrivingAfter`,
 * one every half second after that time, as a live table's new events arrive.
 */
function syntheticEvent(i: number, prefix: string, arrivingAfter?: number): NewPolicyEvent {
  const b = i % BUNDLES;
  const resource = i % 50_000;
  return {
    tenantId: TENANT,
    providerEventId: `${prefix}-${i}`,
    type: TYPES[i % TYPES.length] as NewPolicyEvent["type"],
    cloudProvider: "AWS",
    deploymentId: `dep-${b}`,
    bundleId: `bundle-${b}`,
    deploymentName: `Bundle ${b}`,
    resourceExternalId: `arn:aws:s3:::bucket-${resource}`,
    resourceNativeType: i % 3 === 0 ? "AWS::EC2::Instance" : "AWS::S3::Bucket",
    resourceScope: String(100000000000 + (i % 40)),
    resourceName: `bucket-${resource}`,
    userIdentifier: `arn:aws:iam::123456789012:user/user-${i % 200}`,
    userName: `user-${i % 200}`,
    userType: "USER",
    occurredAt: new Date(
      arrivingAfter === undefined
        ? NOW - (i % (90 * 24 * 60)) * 60_000 - (i % 997)
        : arrivingAfter + i * ARRIVAL_MS,
    ),
    audits: [{ id: `${prefix}-${i}`, action: "organizations:LeaveOrganization", eventTime: "", raw: {} }],
  };
}

const COPY_COLUMNS = `tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id, deployment_name,
  resource_external_id, resource_native_type, resource_scope, resource_name, user_identifier, user_name, user_type,
  occurred_at, audits`;

/** The same rows as `writeEvents` stores for `prefix`, as CSV for COPY. */
function csvOf(count: number, prefix: string, arrivingAfter?: number): string {
  const field = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const e = syntheticEvent(i, prefix, arrivingAfter);
    lines.push(
      [
        e.tenantId,
        e.providerEventId,
        e.type,
        e.cloudProvider,
        e.deploymentId ?? "",
        e.bundleId ?? "",
        e.deploymentName ?? "",
        e.resourceExternalId ?? "",
        e.resourceNativeType ?? "",
        e.resourceScope ?? "",
        e.resourceName ?? "",
        e.userIdentifier ?? "",
        e.userName ?? "",
        e.userType ?? "",
        e.occurredAt.toISOString(),
        JSON.stringify(e.audits),
      ]
        .map(field)
        .join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Milliseconds of one COPY of `csv` into the events table as it is. */
async function copyRows(handle: DatabaseHandle, csv: string): Promise<number | undefined> {
  try {
    if (handle.pglite) {
      const started = performance.now();
      await handle.pglite.query(
        `copy policy_events (${COPY_COLUMNS}) from '/dev/blob' with (format csv)`,
        [],
        {
          blob: new Blob([csv]),
        },
      );
      return performance.now() - started;
    }
    // A server-side COPY from a file: the database must run on this machine (it does for the bench).
    const dir = mkdtempSync(join(tmpdir(), "palisade-copy-"));
    chmodSync(dir, 0o755);
    const file = join(dir, "events.csv");
    writeFileSync(file, csv, { mode: 0o644 });
    try {
      const started = performance.now();
      await handle.db.execute(
        sql.raw(`copy policy_events (${COPY_COLUMNS}) from '${file}' with (format csv)`),
      );
      return performance.now() - started;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } catch (error) {
    console.error(`COPY baseline not measured: ${(error as Error).message}`);
    return undefined;
  }
}

/** Milliseconds of one COPY of the INGEST rows into the (emptied) events table. */
async function copyBaseline(handle: DatabaseHandle): Promise<number | undefined> {
  await handle.db.execute(sql`truncate policy_events, resource_events, event_day_counts`);
  try {
    return await copyRows(handle, csvOf(INGEST, "ingest"));
  } finally {
    await handle.db.execute(sql`truncate policy_events, resource_events, event_day_counts`);
  }
}

/** Events/s of INGEST new events (provider ids `prefix-N`) through `writeEvents`, 5,000 per transaction. */
async function writeRate(db: DatabaseHandle["db"], prefix: string, arrivingAfter?: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < INGEST; i += BATCH) {
    const events = Array.from({ length: Math.min(BATCH, INGEST - i) }, (_, k) =>
      syntheticEvent(i + k, prefix, arrivingAfter),
    );
    await db.transaction(async (tx) => {
      await writeEvents(tx, events);
    });
  }
  return INGEST / ((performance.now() - started) / 1000);
}

/** An ingest rate against the budget and the COPY baseline (milliseconds for INGEST rows). */
function addIngest(engine: string, figure: string, perSecond: number, copy: { label: string; ms?: number }) {
  add({
    group: `events ${engine}`,
    figure,
    value: Math.round(perSecond),
    unit: "events/s",
    budget: { kind: "min", value: engine === "PostgreSQL" ? 20_000 : 10_000 },
    baseline: copy.ms ? { label: copy.label, value: Math.round(INGEST / (copy.ms / 1000)) } : undefined,
    minRatio: 0.5,
  });
}

/** Events/s through `writeEvents`, in calls of 5,000 as one fetch of a busy connector would write. */
async function ingest(handle: DatabaseHandle, engine: string) {
  const db = handle.db;
  const perSecond = await writeRate(db, "ingest");
  // Writing the same events again is what a repeated fetch does: nothing new is stored.
  const again = performance.now();
  const repeat = Array.from({ length: BATCH }, (_, k) => syntheticEvent(k, "ingest"));
  const inserted = await writeEvents(db, repeat);
  const repeatMs = performance.now() - again;
  if (inserted !== 0) throw new Error(`a repeated write stored ${inserted} events again`);
  const copyMs = await copyBaseline(handle);
  addIngest(
    engine,
    `ingest ${INGEST.toLocaleString("en")} events (writeEvents, 5k per transaction)`,
    perSecond,
    {
      label: "COPY of the same rows",
      ms: copyMs,
    },
  );
  add({
    group: `events ${engine}`,
    figure: "re-write of 5k already stored events (0 stored again)",
    value: Math.round(repeatMs),
    unit: "ms",
  });
}

/**
 * Whether the rate holds once the table is large: INGEST more events through the writer into the
 * filled table, newer than every stored one as a live table's are, against a COPY of as many
 * other new rows (the next ones to arrive) into it right after. Measured last, so the copied rows
 * (which no day count includes) change no other figure.
 */
async function ingestIntoFilled(handle: DatabaseHandle, engine: string) {
  const perSecond = await writeRate(handle.db, "grown", NOW);
  const copyMs = await copyRows(handle, csvOf(INGEST, "grown-copy", NOW + INGEST * ARRIVAL_MS));
  addIngest(
    engine,
    `ingest ${INGEST.toLocaleString("en")} events into the table of ${millions} (writeEvents, 5k per transaction)`,
    perSecond,
    { label: "COPY of as many new rows into it", ms: copyMs },
  );
}

function baseQuery(): EventQuery {
  return {
    types: [],
    includeDismissedType: false,
    resourceTypes: [],
    policyNames: [],
    scopes: [],
    scopePrefixes: [],
    users: [],
    providers: [],
  };
}

const FILTERS: [string, Partial<EventQuery>][] = [
  ["newest first, no filter", {}],
  ["type = prevented", { types: ["PREVENTION"] }],
  [
    "type in (alert, waived) + last 7 days",
    { types: ["ALERT", "WAIVED"], start: new Date(NOW - 7 * DAY_MS) },
  ],
  ["one bundle (policyId)", { policyId: "bundle-7" }],
  ["policy name + resource type", { policyNames: ["Bundle 3"], resourceTypes: ["AWS::S3::Bucket"] }],
  ["user list", { users: ["user-17", "user-42"] }],
  ["resource name contains", { resourceName: "bucket-123" }],
  ["scope list", { scopes: ["100000000007", "100000000011"] }],
];

const p95 = (times: number[]) =>
  percentile(
    [...times].sort((a, b) => a - b),
    0.95,
  );

/** The list RPC's database work: one page of 30 plus the capped count, then the next page by cursor. */
async function listLatencies(db: DatabaseHandle["db"], engine: string) {
  let unfiltered: number | undefined;
  for (const [name, extra] of FILTERS) {
    const q = { ...baseQuery(), ...extra };
    const page = { orderBy: EventOrderBy.OCCURRED_TIME, descending: true, limit: 30 };
    const first = await listEvents(db, TENANT, q, page);
    const last = first.rows.at(-1);
    const times: number[] = [];
    const nextTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const t = performance.now();
      await listEvents(db, TENANT, q, page);
      await countEvents(db, TENANT, q, COUNT_CAP);
      times.push(performance.now() - t);
      if (last) {
        const n = performance.now();
        await listEvents(db, TENANT, q, { ...page, after: { value: last.sort_value, id: last.id } });
        nextTimes.push(performance.now() - n);
      }
    }
    const value = p95(times);
    unfiltered ??= value;
    add({
      group: `events ${engine}`,
      figure: `list p95 on ${millions}: ${name} (page of 30 + capped count; next page p95 ${p95(nextTimes).toFixed(1)} ms)`,
      value: Number(value.toFixed(1)),
      unit: "ms",
      budget: { kind: "max", value: 50 },
      baseline: name.startsWith("newest") ? undefined : { label: "unfiltered list", value: unfiltered },
    });
  }
  // The summary counts (Summary, SummaryEvents) from the day counts, against the full scan of the
  // matching events they replace. The 30 days start and end at 13:00 UTC, as a range ending now
  // does: their two partial days are counted from the events.
  const hours = 3_600_000;
  for (const [name, q] of [
    [
      "30 days",
      { ...baseQuery(), start: new Date(NOW - 30 * DAY_MS - 11 * hours), end: new Date(NOW - 11 * hours) },
    ],
    ["all time", baseQuery()],
  ] as const) {
    const fromDays: number[] = [];
    const scans: number[] = [];
    for (let run = 0; run < Math.min(RUNS, 10); run++) {
      let t = performance.now();
      const counted = await summarize(db, TENANT, q);
      fromDays.push(performance.now() - t);
      t = performance.now();
      const scanned = await summarizeEvents(db, TENANT, q);
      scans.push(performance.now() - t);
      if (JSON.stringify(counted) !== JSON.stringify(scanned))
        throw new Error(
          `summary of ${name}: day counts ${JSON.stringify(counted)}, events ${JSON.stringify(scanned)}`,
        );
    }
    add({
      group: `events ${engine}`,
      figure: `summary of ${name} on ${millions} events, p95 (day counts + the partial days' events)`,
      value: Number(p95(fromDays).toFixed(1)),
      unit: "ms",
      budget: { kind: "max", value: 50 },
      baseline: { label: "full scan of the matching events", value: Number(p95(scans).toFixed(1)) },
    });
  }
  // The user picker's substring search (ListUserNames).
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t = performance.now();
    await userNames(db, TENANT, "user-17");
    times.push(performance.now() - t);
  }
  add({
    group: `events ${engine}`,
    figure: `principal contains "user-17" on ${millions} (ListUserNames)`,
    value: Number(p95(times).toFixed(1)),
    unit: "ms",
    budget: { kind: "max", value: 50 },
    baseline: unfiltered ? { label: "unfiltered list", value: unfiltered } : undefined,
  });
}

async function diskSize(db: DatabaseHandle["db"], engine: string) {
  const [row] = (
    (await db.execute(sql`select pg_total_relation_size('policy_events')::bigint as bytes,
      pg_indexes_size('policy_events')::bigint as index_bytes`)) as unknown as {
      rows: { bytes: string; index_bytes: string }[];
    }
  ).rows;
  const perMillion = Number(row?.bytes ?? 0) / (TOTAL / 1_000_000) / 1024 / 1024;
  const indexPerMillion = Number(row?.index_bytes ?? 0) / (TOTAL / 1_000_000) / 1024 / 1024;
  add({
    group: `events ${engine}`,
    figure: `size on disk per million events (table + indexes; indexes ${Math.round(indexPerMillion)} MB)`,
    value: Math.round(perMillion),
    unit: "MB",
  });
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function measure(handle: DatabaseHandle, engine: string) {
  await handle.migrate();
  await seedTenant(handle.db);
  await ingest(handle, engine);
  const t = performance.now();
  await fillEvents(handle.db, TENANT, 0, TOTAL);
  console.error(
    `${engine}: ${TOTAL.toLocaleString("en")} events filled in ${Math.round((performance.now() - t) / 1000)} s`,
  );
  await listLatencies(handle.db, engine);
  await diskSize(handle.db, engine);
  await ingestIntoFilled(handle, engine);
}

async function postgres() {
  await withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir() });
  try {
    await measure(handle, "PostgreSQL");
  } finally {
    await handle.close();
    // BENCH_KEEP_DB=1 leaves the filled database for looking at query plans afterwards.
    if (!process.env.BENCH_KEEP_DB)
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
  }
}

async function pglite() {
  const dir = mkdtempSync(join(tmpdir(), "palisade-events-bench-"));
  const handle = await openDatabase({ dataDir: dir });
  try {
    await measure(handle, "PGlite");
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const started = performance.now();
const classified = classification();
add({
  group: "events",
  figure: `classify ${classified.records.toLocaleString("en")} CloudTrail records, ${BUNDLES} bundles (${classified.events.toLocaleString("en")} events)`,
  value: Math.round(classified.perSecond),
  unit: "records/s",
});
await postgres();
if (!process.env.BENCH_SKIP_PGLITE) await pglite();

console.log(
  `\nEvent store, ${TOTAL.toLocaleString("en")} events in the list table, ${RUNS} runs per filter\n`,
);
console.log("| group | figure | value | budget | baseline | load |");
console.log("|---|---|---|---|---|---|");
for (const f of figures) {
  const budget = f.budget
    ? `${f.budget.kind === "max" ? "<" : ">="} ${f.budget.value.toLocaleString("en")}`
    : "-";
  const baseline = f.baseline
    ? `${f.baseline.label} ${f.baseline.value.toLocaleString("en")} (${(f.value / f.baseline.value).toFixed(2)}x)`
    : "-";
  console.log(
    `| ${f.group} | ${f.figure} | ${f.value.toLocaleString("en")} ${f.unit} | ${budget} | ${baseline} | ${f.load?.toFixed(1)} |`,
  );
}
console.log(`\n(${Math.round((performance.now() - started) / 1000)} s)`);
