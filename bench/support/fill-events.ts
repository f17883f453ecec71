import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "../../apps/server/src/db/database";
import {
  addToDayCounts,
  DAY_COUNT_COLUMNS,
  dayCountChanges,
} from "../../apps/server/src/modules/event/event-day-counts";

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A bundle and deployment the filled events belong to. */
export interface FilledBundle {
  bundleId: string;
  deploymentId: string;
  name: string;
}

/** The events benchmark's 20 bundles (`bundle-N`, deployment `dep-N`, named `Bundle N`). */
const SYNTHETIC_BUNDLES: FilledBundle[] = Array.from({ length: 20 }, (_, b) => ({
  bundleId: `bundle-${b}`,
  deploymentId: `dep-${b}`,
  name: `Bundle ${b}`,
}));

/**
 * Adds synthetic events `from`..`to - 1` of `tenantId` with set-based SQL (not the measured
 * path), counted in their days as the writer counts them: `bundles` (20 by default), 50,000
 * resources, 200 users, 40 accounts, 90 days back from `now`. The secondary indexes are dropped
 * first and built again at the end, which is many times faster than keeping them up to date row
 * by row; the resource events are then made from the events.
 */
export async function fillEvents(
  db: DatabaseHandle["db"],
  tenantId: string,
  from: number,
  to: number,
  now = "2026-06-01T00:00:00Z",
  bundles: FilledBundle[] = SYNTHETIC_BUNDLES,
): Promise<void> {
  const bundleIds = sql.param(bundles.map((b) => b.bundleId));
  const deploymentIds = sql.param(bundles.map((b) => b.deploymentId));
  const names = sql.param(bundles.map((b) => b.name));
  const n = sql.raw(String(bundles.length));
  const indexes = rowsOf<{ name: string; definition: string }>(
    await db.execute(sql`
      select i.indexname as name, i.indexdef as definition from pg_indexes i
      where i.tablename = 'policy_events' and i.indexname not in
        (select conname from pg_constraint where conrelid = 'policy_events'::regclass)
        and i.indexname <> 'policy_events_provider_event_idx'`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
  const step = 200_000;
  for (let start = from; start < to; start += step) {
    const end = Math.min(to, start + step) - 1;
    await db.execute(sql`
      with filled as (insert into policy_events (tenant_id, provider_event_id, type, cloud_provider, deployment_id, bundle_id,
        deployment_name, resource_external_id, resource_native_type, resource_scope, resource_name,
        user_identifier, user_name, user_type, occurred_at, is_dismissed, audits)
      select ${tenantId}, 'fill-' || i,
        (array['PREVENTION','PREVENTION','PREVENTION','ALERT','ALERT','WAIVED','DRIFT'])[1 + i % 7],
        'AWS', (${deploymentIds}::text[])[1 + i % ${n}], (${bundleIds}::text[])[1 + i % ${n}],
        (${names}::text[])[1 + i % ${n}],
        'arn:aws:s3:::bucket-' || (i % 50000), case when i % 3 = 0 then 'AWS::EC2::Instance' else 'AWS::S3::Bucket' end,
        (100000000000 + i % 40)::text, 'bucket-' || (i % 50000),
        'arn:aws:iam::123456789012:user/user-' || (i % 200), 'user-' || (i % 200), 'USER',
        ${now}::timestamptz - ((i % 129600) * interval '1 minute') - ((i % 997) * interval '1 millisecond'),
        i % 50 = 0,
        jsonb_build_array(jsonb_build_object('id', 'fill-' || i, 'action', 'organizations:LeaveOrganization'))
      from generate_series(${start}::int, ${end}::int) as i
      returning ${DAY_COUNT_COLUMNS})
      , counted as (${addToDayCounts(dayCountChanges("filled", 1))})
      select 1`);
  }
  for (const index of indexes) await db.execute(sql.raw(index.definition));
  // A resource event per resource and deployment, pointing at its newest event, as the pipeline
  // keeps them: the resource view and the resource-name search read them.
  await db.execute(sql`
    insert into resource_events (tenant_id, deployment_id, bundle_id, resource_external_id, resource_name,
      resource_native_type, type, last_event_id, last_occurred_at)
    select distinct on (deployment_id, resource_external_id) tenant_id, deployment_id, bundle_id,
      resource_external_id, resource_name, resource_native_type, type, id, occurred_at
    from policy_events where tenant_id = ${tenantId} and deployment_id is not null
    order by deployment_id, resource_external_id, occurred_at desc, id desc
    on conflict (tenant_id, deployment_id, resource_external_id) do update set
      last_event_id = excluded.last_event_id, type = excluded.type, last_occurred_at = excluded.last_occurred_at`);
  // What autovacuum does to a table after a bulk insert: without it, the first reads of each page
  // set its rows' hint bits (writing the page) and index-only scans fetch every row from the heap,
  // so the first runs measure the fill rather than the table a server lives with.
  await db.execute(sql`vacuum analyze policy_events`);
  await db.execute(sql`vacuum analyze resource_events`);
}
