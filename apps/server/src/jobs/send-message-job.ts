import type { Logger } from "../logger";
import {
  type MessageGateway,
  maskedNumber,
  PermanentMessageError,
  type PhoneMessage,
} from "../messaging/message-gateway";
import type { JobDefinition, JobQueue } from "./job-queue";
import type { MailRetry } from "./send-mail-job";

export const SEND_MESSAGE_JOB = "message.send";

export interface SendMessagePayload {
  /** Carries the code or link it delivers: the job is sealed (job-queue.ts). */
  message: PhoneMessage;
}

export function enqueueMessage(jobs: JobQueue, payload: SendMessagePayload): Promise<string | null> {
  return jobs.send<SendMessagePayload>(SEND_MESSAGE_JOB, payload, { sealed: true });
}

/** Delivers phone messages like mail: retried with growing waits, then given up with a warning. */
export function sendMessageWorker(deps: {
  gateway: MessageGateway;
  retry: MailRetry;
  logger: Logger;
}): JobDefinition<SendMessagePayload> {
  const { gateway, retry, logger } = deps;
  return {
    name: SEND_MESSAGE_JOB,
    retryLimit: retry.limit,
    retryDelaySeconds: retry.delaySeconds,
    retryDelayMaxSeconds: Math.max(retry.delaySeconds, 3600),
    expireInSeconds: 300,
    concurrency: 2,
    sealed: true,
    async handler({ id, data, retryCount }) {
      try {
        await gateway.send(data.message, { key: id });
      } catch (error) {
        const text = String((error as Error).message ?? error).slice(0, 500);
        if (retryCount < retry.limit && !(error instanceof PermanentMessageError)) throw error;
        logger.warn(
          {
            component: "messaging",
            jobId: id,
            channel: data.message.channel,
            to: maskedNumber(data.message.to),
            attempts: retryCount + 1,
            err: text,
          },
          "message not delivered",
        );
      }
    },
  };
}
