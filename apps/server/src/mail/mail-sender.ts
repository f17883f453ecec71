import { createTransport } from "nodemailer";
import type { Logger } from "../logger";
import type { MailMessage } from "./mail-templates";
import { createOutbox } from "./outbox";

export interface MailSettings {
  /** smtp:// or smtps:// with optional credentials; the outbox is used when absent. */
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
}

export type MailSent = { via: "smtp"; messageId: string; response: string } | { via: "outbox"; file: string };

export interface MailSender {
  /**
   * Sends one message. `key` names this message across attempts (the job id): a retry
   * carries the same Message-ID, and the outbox overwrites the same file. `link` is what the
   * message asks the reader to open; the outbox logs it so a local user can follow it.
   */
  send(message: MailMessage, options: { key: string; link: string }): Promise<MailSent>;
  close(): void;
}

/** Where mail goes, for the log: the server without its credentials, or the outbox folder. */
export function describeMailTarget(settings: MailSettings): string {
  if (!settings.smtpUrl) return settings.outboxDir;
  const url = new URL(settings.smtpUrl);
  return `${url.protocol}//${url.host}`;
}

export function createMailSender(settings: MailSettings, logger: Logger): MailSender {
  const log = logger.child({ component: "mail" });
  const domain = settings.from.match(/@([^\s>]+)/)?.[1] ?? "palisade.localhost";
  const messageIdOf = (key: string) => `<${key}@${domain}>`;

  if (!settings.smtpUrl) {
    const outbox = createOutbox(settings.outboxDir, settings.from);
    return {
      async send(message, { key, link }) {
        const file = await outbox.write(message, key, messageIdOf(key));
        log.info({ to: message.to, subject: message.subject, file, link }, "mail written to the outbox");
        return { via: "outbox", file };
      },
      close: () => outbox.close(),
    };
  }

  const transport = createTransport(
    {
      url: settings.smtpUrl,
      // Without these a silent server holds a job for minutes before it can be retried.
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 60_000,
    },
    { from: settings.from },
  );
  const target = describeMailTarget(settings);
  return {
    async send(message, { key }) {
      const info = await transport.sendMail({ messageId: messageIdOf(key), ...message });
      log.info(
        { to: message.to, subject: message.subject, server: target, messageId: info.messageId },
        "mail sent",
      );
      return { via: "smtp", messageId: info.messageId, response: info.response };
    },
    close: () => transport.close(),
  };
}

/**
 * What a failed attempt tells an administrator: the mail server's answer when there is one
 * (it names the problem, e.g. "550 5.1.1 <x@example.com>: no such user"), else the error.
 */
export function mailErrorText(error: unknown): string {
  const failure = error as { message?: unknown; response?: unknown };
  const text = typeof failure.response === "string" && failure.response ? failure.response : failure.message;
  return String(text ?? error).slice(0, 1000);
}

/** A rejection that would be repeated on every attempt (an SMTP 5xx answer). */
export function isPermanentMailError(error: unknown): boolean {
  return (error as { permanent?: unknown }).permanent === true;
}
