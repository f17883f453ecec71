import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../src/auth/auth-schema";
import { identityFlowEngines } from "./support/test-database";
import { startTestServer, type TestServer } from "./support/test-server";

const SECRET = "a-webhook-secret-of-some-length";

interface PhoneMessage {
  channel: string;
  to: string;
  text: string;
  code?: string;
  link?: string;
}

/** A message bridge on loopback: keeps each correctly signed body, refuses the first `failNext` with 503. */
async function startMessageReceiver() {
  const receiver = {
    url: "",
    messages: [] as PhoneMessage[],
    badSignatures: 0,
    failNext: 0,
    refused: 0,
    server: undefined as Server | undefined,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`);
      const given = Buffer.from(String(request.headers["x-palisade-signature"] ?? ""));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        receiver.badSignatures += 1;
        response.writeHead(401).end();
        return;
      }
      if (receiver.failNext > 0) {
        receiver.failNext -= 1;
        receiver.refused += 1;
        response.writeHead(503).end();
        return;
      }
      receiver.messages.push(JSON.parse(body.toString("utf8")) as PhoneMessage);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/palisade`;
  receiver.server = server;
  return receiver;
}

describe.each(identityFlowEngines)("phone codes on %s", (engine) => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startMessageReceiver>>;
  let clientCounter = 0;
  let numberCounter = 0;
  beforeAll(async () => {
    receiver = await startMessageReceiver();
    server = await startTestServer(engine, {
      MESSAGE_WEBHOOK_URL: receiver.url,
      MESSAGE_WEBHOOK_SECRET: SECRET,
      MAIL_RETRY_DELAY_SECONDS: "1",
      TRUST_PROXY: "true",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.server?.close(resolve));
  });

  function newNumber(): string {
    numberCounter += 1;
    return `+4420${engine === "pglite" ? "1" : "2"}${String(Date.now()).slice(-5)}${numberCounter}`;
  }

  function post(path: string, body: unknown, token?: string, clientAddress = `192.0.2.${++clientCounter}`) {
    return fetch(`${server.url}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        "x-forwarded-for": clientAddress,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  }

  /** The message that reaches the bridge for this number after `before` messages. */
  async function nextMessage(to: string, before: number): Promise<PhoneMessage> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const mine = receiver.messages.filter((m) => m.to === to);
      if (mine.length > before) return mine.at(-1) as PhoneMessage;
      if (Date.now() > deadline) throw new Error(`no message reached the bridge for ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const sentTo = (to: string) => receiver.messages.filter((m) => m.to === to).length;

  /** A member who added and confirmed a phone number on their account. */
  async function memberWithPhone(role = "EDITOR") {
    const member = await server.addMember({ role });
    const token = member.credentials.kind === "bearer" ? member.credentials.token : "";
    const phone = newNumber();
    const before = sentTo(phone);
    expect((await post("/phone-number/send-otp?channel=sms", { phoneNumber: phone }, token)).status).toBe(
      200,
    );
    const message = await nextMessage(phone, before);
    const added = await post(
      "/phone-number/verify",
      { phoneNumber: phone, code: message.code, updatePhoneNumber: true },
      token,
    );
    expect(added.status, await added.clone().text()).toBe(200);
    return { ...member, phone };
  }

  it("adds a number by a signed code over SMS, then signs in by a code read out by a voice call", async () => {
    const member = await memberWithPhone("EDITOR");
    const [stored] = await server.palisade.database.db.select().from(user).where(eq(user.id, member.userId));
    expect(stored?.phoneNumber).toBe(member.phone);
    expect(stored?.phoneNumberVerified).toBe(true);

    const before = sentTo(member.phone);
    const sent = await post("/phone-number/send-otp?channel=voice", { phoneNumber: member.phone });
    expect(sent.status).toBe(200);
    const call = await nextMessage(member.phone, before);
    expect(call.channel).toBe("voice");
    expect(call.code).toMatch(/^\d{6}$/);
    expect(call.text).toContain((call.code ?? "").split("").join(", "));

    const wrong = await post("/phone-number/verify", {
      phoneNumber: member.phone,
      code: call.code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);

    const signedIn = await post("/phone-number/verify", { phoneNumber: member.phone, code: call.code });
    expect(signedIn.status).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    const current = await server.client(TenantService, { kind: "bearer", token }).getCurrent({});
    expect(current.user?.id).toBe(member.userId);
    expect(current.role).toBe(Role.EDITOR);

    // The code was used: the same code again signs nobody in.
    expect((await post("/phone-number/verify", { phoneNumber: member.phone, code: call.code })).status).toBe(
      400,
    );
  });

  it("sends a WhatsApp code, and delivers it after the bridge failed twice", async () => {
    const member = await memberWithPhone("VIEWER");
    receiver.failNext = 2;
    const before = sentTo(member.phone);
    expect(
      (await post("/phone-number/send-otp?channel=whatsapp", { phoneNumber: member.phone })).status,
    ).toBe(200);
    const message = await nextMessage(member.phone, before);
    expect(receiver.refused).toBeGreaterThanOrEqual(2);
    expect(message.channel).toBe("whatsapp");
    expect(message.text).toContain(message.code);
    const signedIn = await post("/phone-number/verify", { phoneNumber: member.phone, code: message.code });
    expect(signedIn.status).toBe(200);
    expect(receiver.badSignatures).toBe(0);
  });

  it("sends a sign-in link by WhatsApp to the confirmed number, which signs in once", async () => {
    const member = await memberWithPhone("EDITOR");
    const [account] = await server.palisade.database.db.select().from(user).where(eq(user.id, member.userId));
    const email = account?.email ?? "";
    // A request's own metadata does not turn an e-mailed link into a WhatsApp message.
    expect((await post("/sign-in/magic-link", { email, metadata: { channel: "whatsapp" } })).status).toBe(
      200,
    );
    const before = sentTo(member.phone);
    const sent = await post("/whatsapp-link/send", { email });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ status: true });
    const message = await nextMessage(member.phone, before);
    expect(sentTo(member.phone)).toBe(before + 1);
    expect(message.channel).toBe("whatsapp");
    expect(message.code).toBeUndefined();
    expect(message.link).toMatch(/^https?:\/\/\S+\/sign-in-link\?token=[A-Za-z0-9_-]+$/);
    expect(message.text).toContain(message.link);
    expect(message.text).toContain("10 minutes");

    // The link's page spends the token the way an e-mailed link's does.
    const token = new URL(message.link ?? "").searchParams.get("token") ?? "";
    const follow = () =>
      fetch(
        `${server.url}/api/auth/magic-link/verify?${new URLSearchParams({
          token,
          callbackURL: "/sign-in-link?signedIn=1",
          errorCallbackURL: "/sign-in-link",
        })}`,
        { redirect: "manual", headers: { "x-forwarded-for": `192.0.2.${++clientCounter}` } },
      );
    const followed = await follow();
    expect(followed.headers.get("location")).toContain("/sign-in-link?signedIn=1");
    const cookie = followed.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const current = await server.client(TenantService, { kind: "cookie", cookie }).getCurrent({});
    expect(current.user?.id).toBe(member.userId);
    expect(current.role).toBe(Role.EDITOR);
    const replayed = await follow();
    expect(replayed.headers.get("location")).toContain("/sign-in-link?error=INVALID_TOKEN");
    expect(replayed.headers.getSetCookie().join()).not.toContain("palisade.session_token=");
  });

  it("answers a WhatsApp link request the same for an address without a confirmed number or an account", async () => {
    const without = await server.addMember({ role: "VIEWER" });
    const [account] = await server.palisade.database.db
      .select()
      .from(user)
      .where(eq(user.id, without.userId));
    const sent = await post("/whatsapp-link/send", { email: account?.email });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ status: true });
    const unknown = await post("/whatsapp-link/send", { email: "nobody-whatsapp@palisade.test" });
    expect(await unknown.json()).toEqual({ status: true });
    expect((await post("/whatsapp-link/send", { email: "not an address" })).status).toBe(400);
  });

  it("sends nothing to a number no account holds, and creates no account from a code", async () => {
    const stranger = newNumber();
    const sent = await post("/phone-number/send-otp", { phoneNumber: stranger });
    expect(sent.status).toBe(200);
    const verify = await post("/phone-number/verify", { phoneNumber: stranger, code: "123456" });
    expect(verify.status).toBe(400);
    // The job queue had time to deliver anything it was given for a known number meanwhile.
    const member = await memberWithPhone("VIEWER");
    expect(sentTo(member.phone)).toBe(1);
    expect(sentTo(stranger)).toBe(0);
    const found = await server.palisade.database.db.select().from(user).where(eq(user.phoneNumber, stranger));
    expect(found).toEqual([]);
  });

  it("refuses numbers that are not + and 4 to 15 digits, unknown channels and password sign-in by phone", async () => {
    for (const bad of ["0123456", "+123", "+1234567890123456", "+12 345 678"]) {
      const response = await post("/phone-number/send-otp", { phoneNumber: bad });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(
        `"${bad}" is not a valid phone number`,
      );
    }
    expect((await post("/phone-number/send-otp?channel=pigeon", { phoneNumber: "+441234567" })).status).toBe(
      400,
    );
    expect(
      (await post("/sign-in/phone-number", { phoneNumber: "+441234567", password: "whatever-long" })).status,
    ).toBe(404);
  });

  it("limits codes per number and per client address", async () => {
    const member = await memberWithPhone("VIEWER");
    const statuses: number[] = [];
    // Each request from an address of its own: the number's own limit answers.
    for (let i = 0; i < 4; i++)
      statuses.push((await post("/phone-number/send-otp", { phoneNumber: member.phone })).status);
    // Adding the number took the first of its three codes.
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses[2]).toBe(429);

    const address = "198.18.1.9";
    const fromOne: number[] = [];
    for (let i = 0; i < 4; i++)
      fromOne.push(
        (await post("/phone-number/send-otp", { phoneNumber: newNumber() }, undefined, address)).status,
      );
    expect(fromOne[3]).toBe(429);
  });
});
