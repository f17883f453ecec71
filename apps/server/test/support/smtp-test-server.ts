import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerError } from "smtp-server";

export interface ReceivedMail {
  /** Envelope recipients, as the client gave them in RCPT TO. */
  recipients: string[];
  /** The user name the client signed in with, if it did. */
  user: string | undefined;
  parsed: ParsedMail;
}

export interface SmtpTestServer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Every recipient the server was asked to take, including refused ones, in order. */
  attempts: string[];
  /** Resolves with the first message to this address, waiting for it if needed. */
  waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

export interface SmtpTestServerOptions {
  /** An answer refusing this recipient (e.g. { code: 550, message: "no such user" }), or nothing to take it. */
  refuse?: (address: string, attempt: number) => { code: number; message: string } | undefined;
  /** Accepts these credentials and refuses others; without it, sign-in is optional and any is accepted. */
  credentials?: { user: string; password: string };
}

/** A real SMTP server on a loopback port: plain text, no STARTTLS, messages parsed as they arrive. */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const attempts: string[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: !options.credentials,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    // Tests stop the server while a client may still hold a connection open.
    closeTimeout: 500,
    logger: false,
    onAuth(auth, _session, callback) {
      const expected = options.credentials;
      if (expected && (auth.username !== expected.user || auth.password !== expected.password)) {
        return callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      attempts.push(address.address);
      const count = attempts.filter((a) => a === address.address).length;
      const refusal = options.refuse?.(address.address, count);
      if (refusal) {
        const error: SMTPServerError = new Error(refusal.message);
        error.responseCode = refusal.code;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            recipients: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === "string" ? session.user : undefined,
            parsed,
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts,
    async waitForMail(to, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => m.recipients.includes(to));
        if (mail) return mail;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
