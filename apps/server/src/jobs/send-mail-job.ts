import type { Logger } from "../logger";
import { isPermanentMailError, type MailSender, mailErrorText } from "../mail/mail-sender";
import type { MailMessage } from "../mail/mail-templates";
import type { JobDefinition, JobQueue } from "./job-queue";

export const SEND_MAIL_JOB = "mail.send";

/** The record whose delivery status follows this message. */
export type MailDeliveryTarget = { kind: "invitation"; tenantId: string; invitationId: string };

export type MailDeliveryOutcome =
  | { status: "sent" }
  /** An attempt failed and another one is coming. */
  | { status: "retrying"; error: string }
  | { status: "failed"; error: string };

export interface SendMailPayload {
  /** The composed message, with the link or code it delivers: the job is sealed (job-queue.ts). */
  message: MailMessage;
  link: string;
  deliveryOf?: MailDeliveryTarget;
}

export interface MailRetry {
  /** Attempts after the first. */
  limit: number;
  /** Wait before the first retry; each later wait doubles, up to an hour. */
  delaySeconds: number;
}

export function enqueueMail(jobs: JobQueue, payload: SendMailPayload): Promise<string | null> {
  return jobs.send<SendMailPayload>(SEND_MAIL_JOB, payload, { sealed: true });
}

export function sendMailWorker(deps: {
  sender: MailSender;
  retry: MailRetry;
  recordDelivery: (target: MailDeliveryTarget, outcome: MailDeliveryOutcome) => Promise<void>;
  logger: Logger;
}): JobDefinition<SendMailPayload> {
  const { sender, retry, recordDelivery, logger } = deps;
  async function record(target: MailDeliveryTarget | undefined, outcome: MailDeliveryOutcome) {
    if (target) await recordDelivery(target, outcome);
  }
  return {
    name: SEND_MAIL_JOB,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryDelayMaxSeconds: Math.max(retry.delaySeconds, 3600),
    expireInSeconds: 300,
    concurrency: 2,
    sealed: true,
    async handler({ id, data, retryCount }) {
      try {
        await sender.send(data.message, { key: id, link: data.link });
      } catch (error) {
        const text = mailErrorText(error);
        if (retryCount < retry.limit && !isPermanentMailError(error)) {
          await record(data.deliveryOf, { status: "retrying", error: text });
          throw error;
        }
        // Given up: the job ends here and the administrator sees why on the record.
        await record(data.deliveryOf, { status: "failed", error: text });
        logger.warn(
          { component: "mail", jobId: id, to: data.message.to, attempts: retryCount + 1, err: text },
          "mail not delivered",
        );
        return;
      }
      await record(data.deliveryOf, { status: "sent" });
    },
  };
}
