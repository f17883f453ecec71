import type { Logger } from "../logger";
import type { JobDefinition, JobQueue } from "./job-queue";

export const NOTIFY_JOB = "notification.dispatch";
export const NOTIFY_DELIVER_JOB = "notification.deliver";
export const CHAT_NONCE_CLEANUP_JOB = "notification.nonce-cleanup";
export const CHAT_NONCE_CLEANUP_CRON = "17 * * * *";

/** Something a tenant may be told about. The delivery reads the current state when it runs. */
export type NotificationEvent =
  | { kind: "waiver.pending"; tenantId: string; waiverId: string }
  | { kind: "waiver.decided"; tenantId: string; waiverId: string }
  /** Sent two hours before `expiresAt`; skipped if the waiver no longer ends then. */
  | { kind: "waiver.expiring"; tenantId: string; waiverId: string; expiresAt: string }
  | { kind: "deployment.failed"; tenantId: string; bundleId: string };

export type NotificationChannel = "email" | "slack" | "teams";

export interface DeliverPayload {
  event: NotificationEvent;
  channel: NotificationChannel;
}

export interface NotificationRetry {
  /** Attempts after the first. */
  limit: number;
  /** Wait before the first retry; each later wait doubles, up to an hour. */
  delaySeconds: number;
}

/** How far ahead of its end a requester hears that a waiver is about to expire. */
export const EXPIRY_NOTICE_MS = 2 * 60 * 60 * 1_000;

export function enqueueNotification(
  jobs: JobQueue,
  event: NotificationEvent,
  options: { startAfter?: Date } = {},
): Promise<string | null> {
  return jobs.send<NotificationEvent>(NOTIFY_JOB, event, options);
}

/** Queues the "about to expire" notice of a waiver that runs until `expiresAt`. */
export function enqueueExpiryNotice(
  jobs: JobQueue,
  waiver: { tenantId: string; id: string; expiresAt: Date },
): Promise<string | null> {
  const at = new Date(waiver.expiresAt.getTime() - EXPIRY_NOTICE_MS);
  return enqueueNotification(
    jobs,
    {
      kind: "waiver.expiring",
      tenantId: waiver.tenantId,
      waiverId: waiver.id,
      expiresAt: waiver.expiresAt.toISOString(),
    },
    at.getTime() > Date.now() ? { startAfter: at } : {},
  );
}

/** Fans an event out into one delivery job per channel the tenant switched on. */
export function notifyWorker(deps: {
  channelsFor: (event: NotificationEvent) => Promise<NotificationChannel[]>;
  jobs: JobQueue;
}): JobDefinition<NotificationEvent> {
  return {
    name: NOTIFY_JOB,
    retryLimit: 3,
    expireInSeconds: 60,
    async handler({ data }) {
      for (const channel of await deps.channelsFor(data)) {
        await deps.jobs.send<DeliverPayload>(NOTIFY_DELIVER_JOB, { event: data, channel });
      }
    },
  };
}

export type DeliveryOutcome =
  | { status: "sent" }
  | { status: "retrying"; error: string }
  | { status: "failed"; error: string };

/** Sends one notification on one channel; failed attempts are retried, then given up visibly. */
export function deliverWorker(deps: {
  /** False when there was nothing to send (the waiver was decided meanwhile, the channel removed). */
  deliver: (payload: DeliverPayload) => Promise<boolean>;
  record: (payload: DeliverPayload, outcome: DeliveryOutcome) => Promise<void>;
  retry: NotificationRetry;
  logger: Logger;
}): JobDefinition<DeliverPayload> {
  const { retry, logger } = deps;
  return {
    name: NOTIFY_DELIVER_JOB,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryDelayMaxSeconds: Math.max(retry.delaySeconds, 3600),
    expireInSeconds: 120,
    concurrency: 2,
    async handler({ id, data, retryCount }) {
      let delivered: boolean;
      try {
        delivered = await deps.deliver(data);
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        if (retryCount < retry.limit) {
          await deps.record(data, { status: "retrying", error: text });
          throw error;
        }
        await deps.record(data, { status: "failed", error: text });
        logger.warn(
          {
            component: "notification",
            jobId: id,
            channel: data.channel,
            kind: data.event.kind,
            attempts: retryCount + 1,
            err: text,
          },
          "notification not delivered",
        );
        return;
      }
      if (delivered) await deps.record(data, { status: "sent" });
    },
  };
}

/** Hourly: spent or expired chat tokens and seen Slack signatures no longer guard anything. */
export function chatNonceCleanupWorker(deps: {
  deleteExpired: (before: Date) => Promise<void>;
}): JobDefinition<object> {
  return {
    name: CHAT_NONCE_CLEANUP_JOB,
    retryLimit: 1,
    expireInSeconds: 120,
    concurrency: 1,
    handler: () => deps.deleteExpired(new Date()),
  };
}
