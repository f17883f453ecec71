import { enqueueEventFetch } from "./event-fetch-job";
import type { JobDefinition, JobQueue } from "./job-queue";

export const EVENT_FETCH_ALL_JOB = "events.fetch-all";
/** Every minute: events show up in Palisade shortly after they happen in the cloud. */
export const EVENT_FETCH_ALL_CRON = "* * * * *";

export type EventFetchAllPayload = object;

export function scheduleEventFetchAll(jobs: JobQueue): Promise<void> {
  return jobs.schedule(EVENT_FETCH_ALL_JOB, EVENT_FETCH_ALL_CRON);
}

/** Queues a fetch of every connector of every tenant. */
export function eventFetchAllWorker(deps: {
  jobs: JobQueue;
  listConnectorIds: () => Promise<string[]>;
}): JobDefinition<EventFetchAllPayload> {
  return {
    name: EVENT_FETCH_ALL_JOB,
    retryLimit: 0,
    concurrency: 1,
    handler: async () => {
      for (const connectorId of await deps.listConnectorIds()) {
        await enqueueEventFetch(deps.jobs, { connectorId });
      }
    },
  };
}
