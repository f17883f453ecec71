import type { JobDefinition, JobQueue, SendOptions } from "./job-queue";

export const EVENT_FETCH_JOB = "events.fetch";

export interface EventFetchPayload {
  connectorId?: string;
  tenantId?: string;
  /** Row of the `jobs` table the user sees, when a user asked for it. */
  jobId?: string;
  /** Rebuild the tenant's resource events from its stored events first. */
  resync?: boolean;
}

export interface EventFetchOutcome {
  records: number;
  events: number;
  states: number;
  /** Reads that failed (the others' records are stored), each with its reason. */
  failures: string[];
}

/** What the worker needs from the event pipeline. */
export interface EventFetchRunner {
  fetchConnector(connectorId: string): Promise<EventFetchOutcome>;
  rebuildResourceEvents(tenantId: string): Promise<void>;
  finishRequest(
    tenantId: string,
    jobId: string,
    outcome: { ok: true; result: object } | { ok: false; error: string },
  ): Promise<void>;
}

const RETRY_LIMIT = 3;

/** Reads one connector's audit stream and compliance states and stores the events they show. */
export function enqueueEventFetch(
  jobs: JobQueue,
  payload: EventFetchPayload,
  options?: SendOptions,
): Promise<string | null> {
  return jobs.send<EventFetchPayload>(EVENT_FETCH_JOB, payload, options);
}

export function eventFetchWorker(deps: {
  pipeline: EventFetchRunner;
  /** Told after each successful fetch of a connector (recommendations follow what arrived). */
  afterFetch?: (connectorId: string) => Promise<void>;
}): JobDefinition<EventFetchPayload> {
  const { pipeline } = deps;
  return {
    name: EVENT_FETCH_JOB,
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: 5,
    expireInSeconds: 600,
    concurrency: 2,
    handler: async ({ data, retryCount }) => {
      const finish = async (outcome: Parameters<EventFetchRunner["finishRequest"]>[2]) => {
        if (data.jobId && data.tenantId) await pipeline.finishRequest(data.tenantId, data.jobId, outcome);
      };
      try {
        if (data.resync && data.tenantId) await pipeline.rebuildResourceEvents(data.tenantId);
        const outcome = data.connectorId
          ? await pipeline.fetchConnector(data.connectorId)
          : { records: 0, events: 0, states: 0, failures: [] };
        // A failed read is on the connector and is tried again by the next scheduled fetch.
        await finish(
          outcome.failures.length > 0
            ? { ok: false, error: outcome.failures.join(" ") }
            : { ok: true, result: outcome },
        );
        if (data.connectorId && deps.afterFetch) await deps.afterFetch(data.connectorId);
      } catch (error) {
        // The user's job row fails only once the last attempt has.
        if (retryCount >= RETRY_LIMIT) await finish({ ok: false, error: (error as Error).message });
        throw error;
      }
    },
  };
}
