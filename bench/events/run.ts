import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { AuditRecord } from "../../apps/server/src/cloud/cloud-provider";
import { type DatabaseHandle, openDatabase } from "../../apps/server/src/db/database";
import { classifyAudit } from "../../apps/server/src/modules/event/classify";
import type { ClassifyContext } from "../../apps/server/src/modules/event/classify-context";
import type { EventQuery } from "../../apps/server/src/modules/event/event-query";
import { COUNT_CAP, countEvents, listEvents } from "../../apps/server/src/modules/event/event-repository";
import type { NewPolicyEvent } from "../../apps/server/src/modules/event/policy-event";
import { writeEvents } from "../../apps/server/src/modules/event/record-event";
import { percentile } from "../support/percentile";

/**
 * Event store figures: ingest rate through the pipeline's writer into PostgreSQL, and the
 * filtered, keyset-paged events list on a large table (PostgreSQL and PGlite).
 *   BENCH_EVENTS (1,000,000 rows in the list table), BENCH_INGEST (100,000 events written through
 *   the writer), BENCH_RUNS (queries per filter), TEST_DATABASE_URL (admin connection).
 */
const TOTAL = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const INGEST = Number(process.env.BENCH_INGEST ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "palisade_bench";
const TENANT = "bench-tenant";
const BUNDLES = 20;
const DAY_MS = 86_400_000;
const NOW = Date.parse("2026-06-01T00:00:00Z");
const TYPES = ["PREVENTION", "PREVENTION", "PREVENTION", "ALERT", "ALERT", "WAIVED", "DRIFT"] as const;

interface Row {
  engine: string;
  scenario: string;
  figure: string;
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

function syntheticEvent(i: number, prefix: string): NewPolicyEvent {
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
    occurredAt: new Date(NOW - (i % (90 * 24 * 60)) * 60_000 - (i % 997)),
    audits: [{ id: `${prefix}-${i}`, action: "organizations:LeaveOrganization", eventTime: "", raw: {} }],
  };
}

/** Events/s through `writeEvents`, in calls of 5,000 as one fetch of a busy connector would write. */
async function ingest(db: DatabaseHandle["db"], engine: string): Promise<Row[]> {
  const batch = 5000;
  const started = performance.now();
  for (let i = 0; i < INGEST; i += batch) {
    const events = Array.from({ length: Math.min(batch, INGEST - i) }, (_, k) =>
      syntheticEvent(i + k, "ingest"),
    );
    await db.transaction(async (tx) => {
      await writeEvents(tx, events);
    });
  }
  const seconds = (performance.now() - started) / 1000;
  // Writing the same events again is what a repeated fetch does: nothing new is stored.
  const again = performance.now();
  const repeat = Array.from({ length: batch }, (_, k) => syntheticEvent(k, "ingest"));
  const inserted = await writeEvents(db, repeat);
  const repeatMs = performance.now() - again;
  return [
    {
      engine,
      scenario: `ingest ${INGEST.toLocaleString("en")} events (writeEvents, 5k per transaction)`,
      figure: `${Math.round(INGEST / seconds).toLocaleString("en")} events/s`,
    },
    {
      engine,
      scenario: "re-write of 5k already stored events",
      figure: `${inserted} new, ${Math.round(repeatMs)} ms`,
    },
  ];
}

/** Fills the table up to TOTAL rows with set-based SQL (not the measured path). */
async function fill(db: DatabaseHandle["db"], from: number) {
  const step = 100_000;
  for (let start = from; start < TOTAL; start += step) {
    const end = Math.min(TOTAL, start + step) - 1;
    await db.execute(sql`
      insert into policy_events (tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id,
        deployment_name, resource_external_id, resource_native_type, resource_scope, resource_name,
        user_identifier, user_name, user_type, occurred_at, is_dismissed)
      select ${TENANT}, 'fill-' || i,
        (array['PREVENTION','PREVENTION','PREVENTION','ALERT','ALERT','WAIVED','DRIFT'])[1 + i % 7],
        'AWS', 'dep-' || (i % ${BUNDLES}), 'bundle-' || (i % ${BUNDLES}), 'Bundle ' || (i % ${BUNDLES}),
        'arn:aws:s3:::bucket-' || (i % 50000), case when i % 3 = 0 then 'AWS::EC2::Instance' else 'AWS::S3::Bucket' end,
        (100000000000 + i % 40)::text, 'bucket-' || (i % 50000),
        'arn:aws:iam::123456789012:user/user-' || (i % 200), 'user-' || (i % 200), 'USER',
        timestamptz '2026-06-01T00:00:00Z' - ((i % 129600) * interval '1 minute') - ((i % 997) * interval '1 millisecond'),
        i % 50 = 0
      from generate_series(${start}::int, ${end}::int) as i`);
  }
  await db.execute(sql`analyze policy_events`);
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

/** The list RPC's database work: one page of 30 plus the capped count, then the next page by cursor. */
async function listLatencies(db: DatabaseHandle["db"], engine: string): Promise<Row[]> {
  const rows: Row[] = [];
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
    times.sort((a, b) => a - b);
    nextTimes.sort((a, b) => a - b);
    rows.push({
      engine,
      scenario: `list: ${name}`,
      figure: `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms; next page p95 ${percentile(nextTimes, 0.95).toFixed(1)} ms`,
    });
  }
  return rows;
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

async function postgres(): Promise<Row[]> {
  await withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir() });
  try {
    await handle.migrate();
    await seedTenant(handle.db);
    const rows = await ingest(handle.db, "PostgreSQL");
    await fill(handle.db, INGEST);
    rows.push(...(await listLatencies(handle.db, "PostgreSQL")));
    return rows;
  } finally {
    await handle.close();
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`));
  }
}

async function pglite(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "palisade-events-bench-"));
  const handle = await openDatabase({ dataDir: dir });
  try {
    await handle.migrate();
    await seedTenant(handle.db);
    const rows = await ingest(handle.db, "PGlite");
    await fill(handle.db, INGEST);
    rows.push(...(await listLatencies(handle.db, "PGlite")));
    return rows;
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Records/s through classification: CloudTrail records of an account under 20 bundles (half in
 * ALERT mode, so every allowed record is evaluated against their compiled SCPs).
 */
function classification(): Row[] {
  const account = "111122223333";
  const scp = (b: number) =>
    JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Sid: `PalisadeB${b}S0`,
          Effect: "Deny",
          Action: b % 2 === 0 ? "organizations:LeaveOrganization" : "s3:PutBucketAcl",
          Resource: "*",
          Condition: { StringNotEquals: { "aws:RequestedRegion": ["eu-west-1", "eu-central-1"] } },
        },
      ],
    });
  const ctx: ClassifyContext = {
    tenantId: TENANT,
    provider: "aws",
    deployments: Array.from({ length: BUNDLES }, (_, b) => ({
      id: `dep-${b}`,
      bundleId: `bundle-${b}`,
      key: `BENCH${b}`,
      name: `Bundle ${b}`,
      namespace: null,
      mode: b < BUNDLES / 2 ? ("ALERT" as const) : ("PREVENT" as const),
      nativeId: `p-${b}`,
      scopeExternalId: "ou-bench",
      excludedScopes: [],
      affectedResourceTypes: [],
      scp: { id: `p-${b}`, arn: "", name: `b${b}`, document: scp(b) },
    })),
    waivers: [],
    ancestorsOf: (id) => [id, "ou-bench", "r-bench"],
    consoleLinks: false,
  };
  const count = 50_000;
  const records: AuditRecord[] = Array.from({ length: count }, (_, i) => {
    const denied = i % 10 === 0;
    const body = {
      awsRegion: i % 3 === 0 ? "us-east-1" : "eu-west-1",
      recipientAccountId: account,
      userIdentity: {
        type: "IAMUser",
        arn: `arn:aws:iam::${account}:user/u${i % 50}`,
        userName: `u${i % 50}`,
      },
      requestParameters: {},
      resources: [{ ARN: `arn:aws:s3:::bucket-${i % 500}`, accountId: account, type: "AWS::S3::Bucket" }],
      ...(denied
        ? {
            errorCode: "AccessDenied",
            errorMessage: `... with an explicit deny in a service control policy: arn:aws:organizations::999988887777:policy/o-x/service_control_policy/p-${BUNDLES - 1}`,
          }
        : {}),
    };
    return {
      id: `rec-${i}`,
      time: new Date(NOW + i),
      action: i % 2 === 0 ? "organizations:LeaveOrganization" : "s3:PutBucketAcl",
      principal: body.userIdentity.arn,
      scopeId: account,
      errorCode: body.errorCode,
      errorMessage: body.errorMessage,
      raw: { CloudTrailEvent: JSON.stringify(body) },
    };
  });
  const t = performance.now();
  let events = 0;
  for (const record of records) events += classifyAudit(record, ctx).length;
  const seconds = (performance.now() - t) / 1000;
  return [
    {
      engine: "-",
      scenario: `classify ${count.toLocaleString("en")} CloudTrail records, ${BUNDLES} bundles`,
      figure: `${Math.round(count / seconds).toLocaleString("en")} records/s (${events.toLocaleString("en")} events)`,
    },
  ];
}

const started = performance.now();
const results = [
  ...classification(),
  ...(await postgres()),
  ...(process.env.BENCH_SKIP_PGLITE ? [] : await pglite()),
];
console.log(
  `\nEvent store, ${TOTAL.toLocaleString("en")} events in the list table, ${RUNS} runs per filter\n`,
);
const width = Math.max(...results.map((r) => r.scenario.length));
console.log(`| engine     | ${"scenario".padEnd(width)} | figure |`);
console.log(`|------------|-${"-".repeat(width)}-|--------|`);
for (const r of results)
  console.log(`| ${r.engine.padEnd(10)} | ${r.scenario.padEnd(width)} | ${r.figure} |`);
console.log(
  `\n(${Math.round((performance.now() - started) / 1000)} s; load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")} on this machine)`,
);
