import type { Database } from "../../db/database";
import { enqueueEventFetch } from "../../jobs/event-fetch-job";
import type { JobQueue } from "../../jobs/job-queue";
import { finishJobRecord, insertJobRecord } from "../../jobs/job-record-repository";
import { rebuildResourceEvents } from "./resource-event-repository";

/** Queues a fetch of the tenant's connectors (or one); returns the id of the job users see. */
export async function requestFetch(
  deps: { db: Database; jobs: JobQueue },
  input: {
    tenantId: string;
    connectorIds: string[];
    createdBy: string | null;
    kind: string;
    resync?: boolean;
  },
): Promise<string> {
  const { db, jobs } = deps;
  const { tenantId, connectorIds, createdBy, kind, resync } = input;
  const jobId = await insertJobRecord(db, {
    tenantId,
    kind,
    createdBy,
    status: "QUEUED",
    total: connectorIds.length,
  });
  if (connectorIds.length === 0) {
    if (resync) await rebuildResourceEvents(db, tenantId);
    await finishJobRecord(db, tenantId, jobId, { ok: true, result: { records: 0, events: 0, states: 0 } });
    return jobId;
  }
  for (const [i, connectorId] of connectorIds.entries()) {
    // The user's job row is finished by the last connector's fetch.
    await enqueueEventFetch(jobs, {
      connectorId,
      tenantId,
      resync: resync && i === 0,
      jobId: i === connectorIds.length - 1 ? jobId : undefined,
    });
  }
  return jobId;
}
