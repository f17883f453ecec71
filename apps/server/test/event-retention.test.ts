import { EventOrderBy } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../src/db/database";
import { eventRetentionWorker } from "../src/jobs/retention-job";
import { createLogger } from "../src/logger";
import type { EventQuery } from "../src/modules/event/event-query";
import { countEvents } from "../src/modules/event/event-repository";
import { PURGE_BATCH, purgeEventsBefore } from "../src/modules/event/event-retention-repository";
import { summarize, userNames } from "../src/modules/event/event-summary-repository";
import type { NewPolicyEvent } from "../src/modules/event/policy-event";
import { writeEvents } from "../src/modules/event/record-event";
import { listResourceEvents } from "../src/modules/event/resource-event-repository";
import {
  insertTenant,
  listEventRetentions,
  saveTenantSettings,
} from "../src/modules/tenant/tenant-repository";
import { createTestDatabase, engines, type TestDatabase } from "./support/test-database";

const DAY_MS = 86_400_000;
const NOW = new Date("2026-06-01T12:00:00Z");
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

function event(
  tenantId: string,
  id: string,
  resource: string,
  user: string,
  daysAgo: number,
): NewPolicyEvent {
  return {
    tenantId,
    providerEventId: id,
    type: "PREVENTION",
    cloudProvider: "AWS",
    deploymentId: "dep-1",
    bundleId: "bundle-1",
    deploymentName: "Deny leaving the organization",
    resourceExternalId: `arn:aws:s3:::${resource}`,
    resourceName: resource,
    resourceNativeType: "AWS::S3::Bucket",
    userIdentifier: `arn:aws:iam::111122223333:user/${user}`,
    userName: user,
    userType: "USER",
    occurredAt: new Date(NOW.getTime() - daysAgo * DAY_MS),
    audits: [],
  };
}

describe.each(engines)("event retention on %s", (engine) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await handle.migrate();
    await insertTenant(handle.db, { id: "short", name: "Short retention", slug: "short" });
    await insertTenant(handle.db, { id: "default", name: "Default retention", slug: "default" });
    await saveTenantSettings(handle.db, "short", {
      defaultWaiverApprovalMode: "AUTO",
      maxWaiverDurationHours: 72,
      waiverLinkBaseUrl: "",
      eventRetentionDays: 30,
    });
    // More old events than one delete batch, so the purge takes several batches.
    const old = Array.from({ length: PURGE_BATCH + 1200 }, (_, i) =>
      event("short", `old-${i}`, i % 2 === 0 ? "kept-bucket" : "gone-bucket", "former-admin", 100 + (i % 50)),
    );
    await writeEvents(handle.db, old);
    await writeEvents(handle.db, [
      event("short", "recent-1", "kept-bucket", "current-admin", 10),
      event("short", "recent-2", "kept-bucket", "current-admin", 5),
      event("default", "default-old", "kept-bucket", "former-admin", 100),
    ]);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it("deletes each tenant's events older than its retention, and keeps resource events and summaries right", async () => {
    expect(await listEventRetentions(handle.db)).toEqual(
      expect.arrayContaining([
        { tenantId: "short", days: 30 },
        { tenantId: "default", days: 400 },
      ]),
    );
    const worker = eventRetentionWorker({
      listRetentions: () => listEventRetentions(handle.db),
      purge: (tenantId, cutoff) => purgeEventsBefore(handle.db, tenantId, cutoff),
      logger: createLogger("silent"),
      now: () => NOW,
    });
    await worker.handler({ id: "run-1", data: {}, retryCount: 0 });

    expect(await countEvents(handle.db, "short", everything)).toBe(2);
    expect((await summarize(handle.db, "short", everything)).prevention).toBe(2);
    const page = { orderBy: EventOrderBy.OCCURRED_TIME, descending: true, limit: 30 };
    const { rows } = await listResourceEvents(handle.db, "short", everything, page);
    // The bucket with a recent event stays, still showing its newest event; the other is gone.
    expect(rows.map((r) => [r.resource_name, new Date(r.occurred_at).toISOString()])).toEqual([
      ["kept-bucket", new Date(NOW.getTime() - 5 * DAY_MS).toISOString()],
    ]);
    const [{ n: resourceEventRows } = { n: -1 }] = (
      (await handle.db.execute(
        sql`select count(*)::int as n from resource_events where tenant_id = 'short'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows;
    expect(resourceEventRows).toBe(1);
    expect((await userNames(handle.db, "short", undefined)).map((u) => u.user_name)).toEqual([
      "current-admin",
    ]);

    // The default of 400 days keeps a 100-day-old event.
    expect(await countEvents(handle.db, "default", everything)).toBe(1);

    // Running again (a retried job) deletes nothing more.
    await worker.handler({ id: "run-2", data: {}, retryCount: 1 });
    expect(await countEvents(handle.db, "short", everything)).toBe(2);
  });

  it("finds the resource and the identity a substring names", async () => {
    const page = { orderBy: EventOrderBy.OCCURRED_TIME, descending: true, limit: 30 };
    const found = await listResourceEvents(
      handle.db,
      "short",
      { ...everything, resourceName: "EPT-buck" },
      page,
    );
    expect(found.rows.map((r) => r.resource_name)).toEqual(["kept-bucket"]);
    const none = await listResourceEvents(
      handle.db,
      "short",
      { ...everything, resourceName: "gone-b" },
      page,
    );
    expect(none.rows).toEqual([]);
    expect((await userNames(handle.db, "short", "RENT-ad")).map((u) => u.user_name)).toEqual([
      "current-admin",
    ]);
    expect(await userNames(handle.db, "short", "former")).toEqual([]);
  });
});
