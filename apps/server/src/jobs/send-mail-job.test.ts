import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import type { MailSender } from "../mail/mail-sender";
import { type MailDeliveryOutcome, type SendMailPayload, sendMailWorker } from "./send-mail-job";

const quiet = createLogger("silent", new Writable({ write: (_c, _e, done) => done() }));

const payload: SendMailPayload = {
  message: { to: "bob@example.com", subject: "s", text: "t", html: "<p>h</p>" },
  link: "https://palisade.test/invite/i1",
  deliveryOf: { kind: "invitation", tenantId: "t1", invitationId: "i1" },
};

function setup(send: MailSender["send"]) {
  const outcomes: MailDeliveryOutcome[] = [];
  const keys: string[] = [];
  const worker = sendMailWorker({
    sender: {
      send: (message, options) => {
        keys.push(options.key);
        return send(message, options);
      },
      close: () => {},
    },
    retry: { limit: 2, delaySeconds: 1 },
    logger: quiet,
    recordDelivery: async (target, outcome) => {
      expect(target).toEqual(payload.deliveryOf);
      outcomes.push(outcome);
    },
  });
  return { worker, outcomes, keys };
}

const smtpError = (message: string, permanent: boolean) =>
  Object.assign(new Error(message), { response: message, permanent });

describe("send mail worker", () => {
  it("takes its retry policy from its settings", () => {
    const { worker } = setup(async () => ({ via: "outbox", file: "f" }));
    expect(worker).toMatchObject({ name: "mail.send", retryLimit: 2, retryDelaySeconds: 1 });
  });

  it("sends under the job's id and records the delivery", async () => {
    const { worker, outcomes, keys } = setup(async () => ({ via: "outbox", file: "f" }));
    await worker.handler({ id: "job-1", retryCount: 0, data: payload });
    expect(keys).toEqual(["job-1"]);
    expect(outcomes).toEqual([{ status: "sent" }]);
  });

  it("retries a transient failure, and gives up with the error after the last retry", async () => {
    const { worker, outcomes } = setup(async () => {
      throw smtpError("421 4.3.2 Try again later", false);
    });
    await expect(worker.handler({ id: "job-2", retryCount: 0, data: payload })).rejects.toThrow(/421/);
    await expect(worker.handler({ id: "job-2", retryCount: 1, data: payload })).rejects.toThrow(/421/);
    await worker.handler({ id: "job-2", retryCount: 2, data: payload });
    expect(outcomes).toEqual([
      { status: "retrying", error: "421 4.3.2 Try again later" },
      { status: "retrying", error: "421 4.3.2 Try again later" },
      { status: "failed", error: "421 4.3.2 Try again later" },
    ]);
  });

  it("does not retry a permanent refusal", async () => {
    const { worker, outcomes } = setup(async () => {
      throw smtpError("550 5.1.1 No such user", true);
    });
    await worker.handler({ id: "job-3", retryCount: 0, data: payload });
    expect(outcomes).toEqual([{ status: "failed", error: "550 5.1.1 No such user" }]);
  });

  it("sends a message that tracks nothing without recording", async () => {
    const { worker, outcomes } = setup(async () => ({ via: "outbox", file: "f" }));
    await worker.handler({ id: "job-4", retryCount: 0, data: { ...payload, deliveryOf: undefined } });
    expect(outcomes).toEqual([]);
  });
});
