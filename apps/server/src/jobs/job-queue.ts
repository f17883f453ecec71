import { fromPglite, PgBoss } from "pg-boss";
import type { DatabaseHandle } from "../db/database";
import type { Logger } from "../logger";

/**
 * Seals the payload of a job that carries a secret (a mailed link or code) while it waits in the
 * queue, bound to the queue's name; boot/ hands in the instance key's box.
 */
export interface PayloadSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** A kind of background work: cloud side effects, reconciliation, expiry, fetching, exports. */
export interface JobDefinition<T extends object> {
  name: string;
  /** Runs one job. Must be idempotent: a job interrupted by a crash or restart runs again. */
  handler: (job: { id: string; data: T; retryCount: number }) => Promise<void>;
  /** Attempts after the first; throttling and transient errors are retried with backoff. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryDelayMaxSeconds?: number;
  /** An attempt still running after this long is assumed dead and retried. */
  expireInSeconds?: number;
  /**
   * A running attempt tells the database it is alive this often (twice per period); one whose
   * process died (a replica killed mid-job) is retried by another worker after about this long.
   */
  heartbeatSeconds?: number;
  /** Jobs of this kind run at most this many at a time in this process. */
  concurrency?: number;
  /**
   * The payload carries a credential (a mailed link or code): it is queued sealed (`sealed` in
   * `send`), opened only in the worker, and the job row is deleted, not kept as completed, once
   * the handler returns. A database dump or backup then holds no usable credential.
   */
  sealed?: boolean;
}

export interface SendOptions {
  startAfter?: Date | number;
  /** Encrypts the payload with the instance key; the queue's definition must be `sealed` too. */
  sealed?: boolean;
}

/** What a sealed job holds in the queue's table: AES-256-GCM ciphertext bound to the queue's name. */
interface SealedPayload {
  sealed: string;
}

/** How long a sealed job that failed for good stays visible to an operator. */
const SEALED_JOB_KEPT_SECONDS = 60 * 60;

/** A sealed payload opens only under the queue it was sent to. */
function sealContext(queue: string): string {
  return `job:${queue}`;
}

export interface JobQueue {
  register<T extends object>(definition: JobDefinition<T>): Promise<void>;
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Runs `name` on a cron schedule (UTC). */
  schedule(name: string, cron: string, data?: object): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Durable jobs in the application's own database (pg-boss): embedded PGlite in the local
 * run, PostgreSQL otherwise. Jobs survive restarts. A new job wakes the workers of its queue
 * at once (the database's LISTEN/NOTIFY, which reaches every replica), so user-visible work (a
 * waiver reaching the cloud) starts promptly; between jobs the workers look every two seconds,
 * for retries and delayed jobs, which become due without a notification.
 */
export async function startJobQueue(
  database: DatabaseHandle,
  logger: Logger,
  options: { sealer: PayloadSealer },
): Promise<JobQueue> {
  const box = options.sealer;
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: "pglite", useListenNotify: true })
    : new PgBoss({
        connectionString: database.connectionString,
        useListenNotify: true,
        max: 4,
        // Jobs whose worker stopped sending heartbeats (a replica died) are retried within seconds.
        superviseIntervalSeconds: 5,
        monitorIntervalSeconds: 5,
      });
  boss.on("error", (error: Error) =>
    logger.error({ err: error.message, component: "jobs" }, "job queue error"),
  );
  await boss.start();

  return {
    async register<T extends object>(definition: JobDefinition<T>) {
      const {
        name,
        handler,
        retryLimit = 5,
        retryDelaySeconds = 2,
        retryDelayMaxSeconds = 300,
        expireInSeconds = 600,
        heartbeatSeconds = 10,
        concurrency = 2,
        sealed = false,
      } = definition;
      const settings = {
        retryLimit,
        retryDelay: retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds,
        heartbeatSeconds,
        notify: true,
        // A sealed job that ended otherwise (retries exhausted) is not kept for the default week.
        ...(sealed ? { deleteAfterSeconds: SEALED_JOB_KEPT_SECONDS } : {}),
      };
      await boss.createQueue(name, { ...settings, retryDelayMax: retryDelayMaxSeconds });
      // A queue made by an earlier version takes the current settings.
      await boss.updateQueue(name, settings);
      // A job queued in the clear by an earlier version, before an upgrade, is still delivered.
      const open = (data: unknown): T =>
        sealed && typeof (data as Partial<SealedPayload>).sealed === "string"
          ? (JSON.parse(box.open((data as SealedPayload).sealed, sealContext(name))) as T)
          : (data as T);
      await boss.work<T>(
        name,
        {
          notifyPollingIntervalSeconds: 2,
          // Without a listener (a pooler in transaction mode drops LISTEN), polling alone.
          pollingIntervalSeconds: 0.5,
          localConcurrency: concurrency,
          batchSize: 1,
        },
        async (jobs) => {
          for (const job of jobs) {
            try {
              await handler({ id: job.id, data: open(job.data), retryCount: job.retryCount });
            } catch (error) {
              logger.warn(
                {
                  component: "jobs",
                  queue: name,
                  jobId: job.id,
                  attempt: job.retryCount + 1,
                  err: (error as Error).message,
                },
                "job attempt failed",
              );
              throw error;
            }
            // Delivered or given up: the sealed row goes at once rather than after the queue's
            // retention. Should this fail, pg-boss completes the job and the retention removes it.
            if (sealed) {
              await boss
                .deleteJob(name, job.id)
                .catch((error: Error) =>
                  logger.warn(
                    { component: "jobs", queue: name, jobId: job.id, err: error.message },
                    "sealed job not deleted",
                  ),
                );
            }
          }
        },
      );
    },
    send(name, data, options = {}) {
      const stored: object = options.sealed
        ? ({ sealed: box.seal(JSON.stringify(data), sealContext(name)) } satisfies SealedPayload)
        : data;
      return boss.send(name, stored, { startAfter: options.startAfter });
    },
    async schedule(name, cron, data) {
      await boss.schedule(name, cron, data ?? null, { tz: "UTC" });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: true });
    },
  };
}
