import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../src/db/database";
import type { EventQuery } from "../src/modules/event/event-query";
import { markDriftHistorical, rowsOf, setEventDismissed } from "../src/modules/event/event-repository";
import { purgeEventsBefore } from "../src/modules/event/event-retention-repository";
import {
  type SummaryCounts,
  summarize,
  summarizeBuckets,
  summarizeEvents,
  summaryOf,
} from "../src/modules/event/event-summary-repository";
import type { EventTypeName, NewPolicyEvent } from "../src/modules/event/policy-event";
import { writeEvents } from "../src/modules/event/record-event";
import { setResourceDismissed } from "../src/modules/event/resource-event-repository";
import { insertTenant } from "../src/modules/tenant/tenant-repository";
import { createTestDatabase, engines, type TestDatabase } from "./support/test-database";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const NOW = Date.parse("2026-06-01T13:20:00Z");
const TENANT = "counted";
const TYPES: EventTypeName[] = ["PREVENTION", "ALERT", "WAIVED", "DRIFT", "PREVENTION"];

const everything: EventQuery = {
  types: [],
  includeDismissedType: false,
  resourceTypes: [],
  policyNames: [],
  scopes: [],
  scopePrefixes: [],
  users: [],
  providers: [],
};

/** Events every 7 hours over 44 days, spread over bundles (one without any), kinds and clouds. */
const events: NewPolicyEvent[] = Array.from({ length: 150 }, (_, i) => {
  const bundle = i % 4 === 3 ? null : `bundle-${i % 4}`;
  const azure = i % 5 === 0;
  return {
    tenantId: TENANT,
    providerEventId: `event-${i}`,
    type: TYPES[i % TYPES.length] as EventTypeName,
    cloudProvider: azure ? "AZURE" : "AWS",
    deploymentId: bundle && `dep-${i % 4}`,
    bundleId: bundle,
    deploymentName: bundle && `Policy ${i % 4}`,
    resourceExternalId: `resource-${i % 9}`,
    resourceName: `resource-${i % 9}`,
    resourceNativeType: i % 6 === 0 ? null : azure ? "Microsoft.Storage/storageAccounts" : "AWS::S3::Bucket",
    resourceScope: azure ? "/subscriptions/sub-1" : "111122223333",
    userIdentifier: `user-${i % 3}`,
    userName: `user-${i % 3}`,
    userType: "USER",
    occurredAt: new Date(NOW - i * 7 * HOUR_MS - (i % 60) * 60_000),
    audits: [],
  };
});

/** Filters the day counts answer, with time ranges that start and end inside a day. */
const FILTERS: [string, EventQuery][] = [
  ["everything", everything],
  ["30 days ending now", { ...everything, start: new Date(NOW - 30 * DAY_MS), end: new Date(NOW) }],
  ["since a midnight", { ...everything, start: new Date(Date.parse("2026-05-20T00:00:00Z")) }],
  ["until a time of day", { ...everything, end: new Date(NOW - 10 * DAY_MS - 5 * HOUR_MS) }],
  [
    "from early in a day to late in a day",
    { ...everything, start: new Date("2026-05-18T03:00:00Z"), end: new Date("2026-05-29T20:00:00Z") },
  ],
  ["within one day", { ...everything, start: new Date(NOW - 3 * HOUR_MS), end: new Date(NOW) }],
  ["one bundle", { ...everything, policyId: "bundle-1" }],
  ["alerts and dismissed", { ...everything, types: ["ALERT"], includeDismissedType: true }],
  ["dismissed only", { ...everything, isDismissed: true }],
  ["Azure", { ...everything, providers: ["AZURE"] }],
  [
    "policy name and resource type",
    { ...everything, policyNames: ["Policy 2"], resourceTypes: ["AWS::S3::Bucket"] },
  ],
  ["a user (read from the events)", { ...everything, users: ["user-1"] }],
];

/** Counts per UTC day or week, added up from the hourly buckets that are always read from the events. */
async function bucketsFromHours(db: DatabaseHandle["db"], q: EventQuery, size: "day" | "week") {
  const out = new Map<string, SummaryCounts>();
  for (const row of await summarizeBuckets(db, TENANT, q, "hour")) {
    const at = new Date(row.bucket).getTime();
    let start = Math.floor(at / DAY_MS) * DAY_MS;
    if (size === "week") start -= ((new Date(start).getUTCDay() + 6) % 7) * DAY_MS;
    const key = new Date(start).toISOString();
    const sum = out.get(key) ?? summaryOf(undefined);
    const add = summaryOf(row);
    for (const k of Object.keys(sum) as (keyof SummaryCounts)[]) sum[k] += add[k];
    out.set(key, sum);
  }
  return [...out.entries()].sort(([a], [b]) => a.localeCompare(b));
}

describe.each(engines)("event day counts on %s", (engine) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const db = () => handle.db;

  /** The day counts hold exactly what a count over the stored events gives, and every summary agrees. */
  async function expectCountsOfTheEvents() {
    const counted = rowsOf(
      await db().execute(sql`
        select day::text as day, bundle_id, deployment_name, cloud_provider, resource_native_type, type,
          is_dismissed, archived, events
        from event_day_counts where tenant_id = ${TENANT} and events <> 0 order by 1, 2, 3, 4, 5, 6, 7, 8`),
    );
    const fromEvents = rowsOf(
      await db().execute(sql`
        select ((occurred_at at time zone 'UTC')::date)::text as day, coalesce(bundle_id, '') as bundle_id,
          coalesce(deployment_name, '') as deployment_name, cloud_provider,
          coalesce(resource_native_type, '') as resource_native_type, type, is_dismissed, archived,
          count(*)::int as events
        from policy_events where tenant_id = ${TENANT} group by 1, 2, 3, 4, 5, 6, 7, 8 order by 1, 2, 3, 4, 5, 6, 7, 8`),
    );
    expect(counted).toEqual(fromEvents);
    for (const [name, q] of FILTERS) {
      expect({ name, counts: await summarize(db(), TENANT, q) }).toEqual({
        name,
        counts: await summarizeEvents(db(), TENANT, q),
      });
      for (const size of ["day", "week"] as const) {
        const buckets = (await summarizeBuckets(db(), TENANT, q, size)).map(
          (r) => [new Date(r.bucket).toISOString(), summaryOf(r)] as const,
        );
        expect({ name, size, buckets }).toEqual({
          name,
          size,
          buckets: await bucketsFromHours(db(), q, size),
        });
      }
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await handle.migrate();
    await insertTenant(handle.db, { id: TENANT, name: "Counted", slug: "counted" });
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it("counts the events as they are written, and a repeated write counts nothing twice", async () => {
    expect(await writeEvents(db(), events)).toBe(events.length);
    await expectCountsOfTheEvents();
    const prevented = (await summarize(db(), TENANT, everything)).prevention;
    expect(prevented).toBe(events.filter((e) => e.type === "PREVENTION").length);

    // A fetch that reads the same records again (and one new one) stores and counts only the new one.
    const again = [...events.slice(0, 40), { ...events[0]!, providerEventId: "event-new" }];
    expect(await writeEvents(db(), again)).toBe(1);
    await expectCountsOfTheEvents();
    expect((await summarize(db(), TENANT, everything)).prevention).toBe(prevented + 1);
  });

  it("moves the counts when events are dismissed, restored or their drift becomes history", async () => {
    const [resource] = rowsOf<{ id: string }>(
      await db().execute(
        sql`select id from resource_events where tenant_id = ${TENANT} and resource_external_id = 'resource-4'`,
      ),
    );
    await setResourceDismissed(db(), TENANT, resource!.id, true);
    const [event] = rowsOf<{ id: string }>(
      await db().execute(
        sql`select id from policy_events where tenant_id = ${TENANT} and resource_external_id = 'resource-2' limit 1`,
      ),
    );
    await setEventDismissed(db(), TENANT, event!.id, true);
    // Dismissing what is already dismissed changes nothing.
    await setEventDismissed(db(), TENANT, event!.id, true);
    await expectCountsOfTheEvents();
    expect((await summarize(db(), TENANT, everything)).dismissed).toBeGreaterThan(1);
    await setResourceDismissed(db(), TENANT, resource!.id, false);
    await expectCountsOfTheEvents();

    const drift = events.find((e) => e.type === "DRIFT" && e.deploymentId)!;
    await markDriftHistorical(db(), TENANT, drift.deploymentId!, drift.resourceExternalId!);
    await expectCountsOfTheEvents();
    expect((await summarize(db(), TENANT, everything)).historical).toBeGreaterThan(0);
  });

  it("takes purged events off the counts and keeps no empty day", async () => {
    const cutoff = new Date(NOW - 20 * DAY_MS - 5 * HOUR_MS);
    const purged = await purgeEventsBefore(db(), TENANT, cutoff);
    expect(purged).toBeGreaterThan(0);
    await expectCountsOfTheEvents();
    const [empty] = rowsOf<{ n: number }>(
      await db().execute(sql`select count(*)::int as n from event_day_counts where events = 0`),
    );
    expect(empty?.n).toBe(0);
    const [oldest] = rowsOf<{ day: string }>(
      await db().execute(sql`select min(day)::text as day from event_day_counts where tenant_id = ${TENANT}`),
    );
    const kept = events
      .filter((e) => e.occurredAt.getTime() >= cutoff.getTime())
      .map((e) => e.occurredAt.getTime());
    expect(oldest?.day).toBe(new Date(Math.min(...kept)).toISOString().slice(0, 10));
  });
});
