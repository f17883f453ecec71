import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../db/database";
import { bundleDeleteWorker } from "../jobs/bundle-delete-job";
import { bundleSyncWorker, type CloudRetry } from "../jobs/bundle-sync-job";
import { eventFetchAllWorker, scheduleEventFetchAll } from "../jobs/event-fetch-all-job";
import { eventFetchWorker } from "../jobs/event-fetch-job";
import {
  EXPORT_CLEANUP_CRON,
  EXPORT_CLEANUP_JOB,
  exportCleanupWorker,
  exportWorker,
} from "../jobs/export-job";
import { impactPreviewWorker } from "../jobs/impact-preview-job";
import type { JobQueue } from "../jobs/job-queue";
import {
  CHAT_NONCE_CLEANUP_CRON,
  CHAT_NONCE_CLEANUP_JOB,
  chatNonceCleanupWorker,
  deliverWorker,
  type NotificationRetry,
  notifyWorker,
} from "../jobs/notification-job";
import {
  enqueuePropagationSettle,
  PROPAGATION_SETTLE_CRON,
  PROPAGATION_SETTLE_JOB,
  propagationSettleWorker,
} from "../jobs/propagation-settle-job";
import {
  RATE_LIMIT_CLEANUP_CRON,
  RATE_LIMIT_CLEANUP_JOB,
  rateLimitCleanupWorker,
} from "../jobs/rate-limit-cleanup-job";
import {
  createFetchTrigger,
  RECOMMENDATION_CRON,
  RECOMMENDATION_JOB,
  recommendationWorker,
} from "../jobs/recommendation-job";
import { enqueueReconcile, RECONCILE_CRON, RECONCILE_JOB, reconcileWorker } from "../jobs/reconcile-job";
import {
  AUDIT_RETENTION_CRON,
  AUDIT_RETENTION_JOB,
  auditRetentionWorker,
  EVENT_RETENTION_CRON,
  EVENT_RETENTION_JOB,
  eventRetentionWorker,
} from "../jobs/retention-job";
import { type MailRetry, sendMailWorker } from "../jobs/send-mail-job";
import { sendMessageWorker } from "../jobs/send-message-job";
import {
  enqueueWaiverExpiry,
  WAIVER_EXPIRY_CRON,
  WAIVER_EXPIRY_JOB,
  waiverExpiryWorker,
} from "../jobs/waiver-expiry-job";
import type { Logger } from "../logger";
import type { MailSender } from "../mail/mail-sender";
import type { MessageGateway } from "../messaging/message-gateway";
import { deleteAuditRecordsBefore } from "../modules/audit/audit-repository";
import type { ConnectorRuntime } from "../modules/connector/connector-runtime";
import type { BundleEngine } from "../modules/deployment/bundle-engine";
import { runImpactPreview } from "../modules/deployment/impact-preview-run";
import { settlePropagation } from "../modules/deployment/propagation-settle";
import { createEventPipeline } from "../modules/event/event-pipeline";
import { purgeEventsBefore } from "../modules/event/event-retention-repository";
import { findConnectorAnyTenant, listConnectorIdsAnyTenant } from "../modules/event/fetch-repository";
import type { ExportService } from "../modules/export/export-service";
import {
  channelsFor,
  deliverNotification,
  type NotificationDeps,
  recordNotificationOutcome,
} from "../modules/notification/notification-delivery";
import { deleteExpiredNoncesAnyTenant } from "../modules/notification/notification-repository";
import type { RecommendationComputer } from "../modules/recommendation/recommendation-compute";
import { readTenantsWithConnectors } from "../modules/recommendation/recommendation-facts-repository";
import { recordInvitationDelivery } from "../modules/team/invitation-delivery-repository";
import { listAuditRetentions, listEventRetentions } from "../modules/tenant/tenant-repository";
import { expireDueWaivers } from "../modules/waiver/waiver-lifecycle";
import { deleteIdleBuckets } from "../rpc/rate-limit-repository";

export interface WorkerDeps {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  logger: Logger;
  /** Applies bundles to the cloud: deploy, delete and reconcile jobs. */
  engine: BundleEngine;
  exports: ExportService;
  mail: { sender: MailSender; retry: MailRetry };
  /** Phone messages (codes by SMS, voice, WhatsApp), retried as mail is. */
  messages: { gateway: MessageGateway; retry: MailRetry };
  notifications: NotificationDeps & { retry: NotificationRetry };
  /** Retries of deployments while the cloud is unreachable or throttling. */
  cloudRetry?: CloudRetry;
  /** Computes a tenant's recommendations (daily, after event fetches). */
  recommendations: RecommendationComputer;
}

/**
 * Starts every kind of background work in this process, and the schedules that feed them. Work
 * interrupted by a crash (a deployment left PENDING or EVALUATING, a waiver due or a propagation
 * ended while the server was down) is queued once at start-up.
 */
export async function registerWorkers(jobs: JobQueue, deps: WorkerDeps): Promise<void> {
  const { db, logger, engine } = deps;

  await jobs.register(bundleSyncWorker({ engine, jobs, retry: deps.cloudRetry }));
  await jobs.register(bundleDeleteWorker({ engine, retry: deps.cloudRetry }));
  await jobs.register(reconcileWorker({ engine }));
  await jobs.schedule(RECONCILE_JOB, RECONCILE_CRON, {});
  await enqueueReconcile(jobs, {});

  await jobs.register(waiverExpiryWorker({ expireDue: () => expireDueWaivers({ db, jobs }), logger }));
  await jobs.schedule(WAIVER_EXPIRY_JOB, WAIVER_EXPIRY_CRON);
  await enqueueWaiverExpiry(jobs);

  await jobs.register(propagationSettleWorker({ settleDue: () => settlePropagation(db), logger }));
  await jobs.schedule(PROPAGATION_SETTLE_JOB, PROPAGATION_SETTLE_CRON);
  await enqueuePropagationSettle(jobs);

  const pipeline = createEventPipeline(deps);
  const recomputeAfterFetch = createFetchTrigger(jobs);
  await jobs.register(
    eventFetchWorker({
      pipeline,
      afterFetch: async (connectorId) => {
        const connector = await findConnectorAnyTenant(db, connectorId);
        if (connector) await recomputeAfterFetch(connector.tenantId);
      },
    }),
  );
  await jobs.register(
    recommendationWorker({
      jobs,
      compute: (tenantId) => deps.recommendations.compute(tenantId),
      listTenants: () => readTenantsWithConnectors(db),
      logger,
    }),
  );
  await jobs.schedule(RECOMMENDATION_JOB, RECOMMENDATION_CRON);
  await jobs.register(eventFetchAllWorker({ jobs, listConnectorIds: () => listConnectorIdsAnyTenant(db) }));
  await scheduleEventFetchAll(jobs);
  await jobs.register(
    eventRetentionWorker({
      listRetentions: () => listEventRetentions(db),
      purge: (tenantId, cutoff) => purgeEventsBefore(db, tenantId, cutoff),
      logger,
    }),
  );
  await jobs.schedule(EVENT_RETENTION_JOB, EVENT_RETENTION_CRON);
  await jobs.register(
    auditRetentionWorker({
      listRetentions: () => listAuditRetentions(db),
      purge: (tenantId, cutoff) => deleteAuditRecordsBefore(db, tenantId, cutoff),
      logger,
    }),
  );
  await jobs.schedule(AUDIT_RETENTION_JOB, AUDIT_RETENTION_CRON);

  await jobs.register(exportWorker({ exports: deps.exports }));
  await jobs.register(exportCleanupWorker({ exports: deps.exports }));
  await jobs.schedule(EXPORT_CLEANUP_JOB, EXPORT_CLEANUP_CRON);
  await jobs.register(
    impactPreviewWorker({
      run: (payload) =>
        runImpactPreview(
          {
            db,
            catalogue: deps.catalogue,
            runtime: deps.runtime,
            logger,
            catchUp: (connectorId) => pipeline.fetchConnector(connectorId),
          },
          payload,
        ),
    }),
  );

  await jobs.register(
    sendMailWorker({
      ...deps.mail,
      logger,
      recordDelivery: (target, outcome) => recordInvitationDelivery(db, target, outcome),
    }),
  );

  await jobs.register(sendMessageWorker({ ...deps.messages, logger }));

  const { retry, ...notifications } = deps.notifications;
  await jobs.register(notifyWorker({ jobs, channelsFor: (event) => channelsFor({ db }, event) }));
  await jobs.register(
    deliverWorker({
      retry,
      logger,
      deliver: (payload) => deliverNotification(notifications, payload),
      record: (payload, outcome) => recordNotificationOutcome(db, payload, outcome),
    }),
  );
  await jobs.register(
    chatNonceCleanupWorker({ deleteExpired: (before) => deleteExpiredNoncesAnyTenant(db, before) }),
  );
  await jobs.schedule(CHAT_NONCE_CLEANUP_JOB, CHAT_NONCE_CLEANUP_CRON);

  await jobs.register(rateLimitCleanupWorker({ deleteIdle: (seconds) => deleteIdleBuckets(db, seconds) }));
  await jobs.schedule(RATE_LIMIT_CLEANUP_JOB, RATE_LIMIT_CLEANUP_CRON);
}
