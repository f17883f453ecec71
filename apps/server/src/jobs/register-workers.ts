import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import type { Database } from "../db/database";
import type { Logger } from "../logger";
import type { MailSender } from "../mail/mail-sender";
import type { ConnectorRuntime } from "../modules/connector/connector-runtime";
import { createEventPipeline } from "../modules/event/event-pipeline";
import { listConnectorIdsAnyTenant } from "../modules/event/fetch-repository";
import type { ExportService } from "../modules/export/export-service";
import { recordInvitationDelivery } from "../modules/team/invitation-delivery-repository";
import { eventFetchAllWorker, scheduleEventFetchAll } from "./event-fetch-all-job";
import { eventFetchWorker } from "./event-fetch-job";
import { exportWorker } from "./export-job";
import type { JobQueue } from "./job-queue";
import { type MailRetry, sendMailWorker } from "./send-mail-job";

export interface WorkerDeps {
  db: Database;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  logger: Logger;
  exports: ExportService;
  mail: { sender: MailSender; retry: MailRetry };
}

/** Starts every kind of background work in this process, and the schedules that feed them. */
export async function registerWorkers(jobs: JobQueue, deps: WorkerDeps): Promise<void> {
  const { db } = deps;
  const pipeline = createEventPipeline(deps);
  await jobs.register(eventFetchWorker({ pipeline }));
  await jobs.register(eventFetchAllWorker({ jobs, listConnectorIds: () => listConnectorIdsAnyTenant(db) }));
  await scheduleEventFetchAll(jobs);
  await jobs.register(exportWorker({ exports: deps.exports }));
  await jobs.register(
    sendMailWorker({
      ...deps.mail,
      logger: deps.logger,
      recordDelivery: (target, outcome) => recordInvitationDelivery(db, target, outcome),
    }),
  );
}
