import { createHmac } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../logger";

/** How a phone message reaches its reader. */
export type MessageChannel = "sms" | "voice" | "whatsapp";
export const MESSAGE_CHANNELS: readonly MessageChannel[] = ["sms", "voice", "whatsapp"];

/** One message to a phone: the body the webhook receives, exactly. */
export interface PhoneMessage {
  channel: MessageChannel;
  /** E.164: `+` and 4 to 15 digits. */
  to: string;
  /** What the reader sees or hears. */
  text: string;
  /** The one-time code the text carries, for bridges that template their own wording. */
  code?: string;
  /** The sign-in link the text carries (a link by WhatsApp), for the same bridges. */
  link?: string;
}

export interface MessageSettings {
  /** MESSAGE_WEBHOOK_URL: messages are POSTed there; the outbox is used when absent. */
  webhookUrl: string | undefined;
  /** MESSAGE_WEBHOOK_SECRET: the key of the body's HMAC-SHA256 signature. */
  webhookSecret: string | undefined;
  outboxDir: string;
}

export type MessageSent = { via: "webhook"; status: number } | { via: "outbox"; file: string };

/** Sends phone messages (SMS, voice calls, WhatsApp) through whatever the instance has. */
export interface MessageGateway {
  /** `key` names the message across attempts: a retry overwrites the same outbox file. */
  send(message: PhoneMessage, options: { key: string }): Promise<MessageSent>;
}

/** The header carrying `sha256=<hex HMAC of the raw body>`. */
export const SIGNATURE_HEADER = "x-palisade-signature";

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** A refusal of the receiver that another attempt will not change (bad request, wrong signature). */
export class PermanentMessageError extends Error {}

/** The number without its middle digits, for logs. */
export function maskedNumber(to: string): string {
  return to.length > 6 ? `${to.slice(0, 3)}…${to.slice(-2)}` : "…";
}

export function describeMessageTarget(settings: MessageSettings): string {
  if (!settings.webhookUrl) return settings.outboxDir;
  const url = new URL(settings.webhookUrl);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function createMessageGateway(settings: MessageSettings, logger: Logger): MessageGateway {
  const log = logger.child({ component: "messaging" });
  const { webhookUrl, webhookSecret } = settings;
  if (!webhookUrl || !webhookSecret) {
    return {
      async send(message, { key }) {
        await mkdir(settings.outboxDir, { recursive: true });
        const file = join(
          settings.outboxDir,
          `${key.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120)}.message.json`,
        );
        const partial = `${file}.partial`;
        await writeFile(partial, `${JSON.stringify(message, null, 2)}\n`, { mode: 0o600 });
        await rename(partial, file);
        log.info(
          { channel: message.channel, to: maskedNumber(message.to), file },
          "message written to the outbox",
        );
        return { via: "outbox", file };
      },
    };
  }
  const target = describeMessageTarget(settings);
  return {
    async send(message, { key }) {
      const body = JSON.stringify(message);
      const response = await fetch(webhookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signBody(body, webhookSecret),
          // The same id on every attempt, so a receiver can drop a repeat.
          "idempotency-key": key,
        },
        body,
        signal: AbortSignal.timeout(20_000),
      });
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok) {
        const text = `the message webhook answered ${response.status} ${response.statusText}`.trim();
        const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
        throw retryable ? new Error(text) : new PermanentMessageError(text);
      }
      log.info({ channel: message.channel, to: maskedNumber(message.to), webhook: target }, "message sent");
      return { via: "webhook", status: response.status };
    },
  };
}
