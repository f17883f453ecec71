import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { port } from "./admin";

/** Slack, on loopback: its Web API (users.info), an incoming webhook and response URLs. */
export const chatReceiverPort = Number(process.env.E2E_CHAT_PORT ?? port + 7);
export const chatReceiverURL = `http://127.0.0.1:${chatReceiverPort}`;
export const slackApiURL = `${chatReceiverURL}/slack-api`;

export interface SlackReceiver {
  /** Bodies posted to the incoming webhook and the response URLs, in order. */
  received: { path: string; body: Record<string, unknown> }[];
  /** Slack user id -> e-mail address, as users.info answers. */
  users: Map<string, string>;
  stop(): Promise<void>;
}

export async function startSlackReceiver(botToken: string): Promise<SlackReceiver> {
  const receiver: SlackReceiver = { received: [], users: new Map(), stop: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", chatReceiverURL);
      response.setHeader("content-type", "application/json");
      if (url.pathname === "/slack-api/users.info") {
        const email =
          request.headers.authorization === `Bearer ${botToken}`
            ? receiver.users.get(url.searchParams.get("user") ?? "")
            : undefined;
        response.end(JSON.stringify(email ? { ok: true, user: { profile: { email } } } : { ok: false }));
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8");
      receiver.received.push({ path: url.pathname, body: text ? JSON.parse(text) : {} });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(chatReceiverPort, "127.0.0.1", resolve));
  receiver.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** A button press as Slack posts it to the Interactivity URL, signed with the app's secret. */
export function slackButtonPress(input: {
  signingSecret: string;
  slackUserId: string;
  actionId: string;
  value: string;
  responseUrl: string;
}): { body: string; headers: Record<string, string> } {
  const payload = {
    type: "block_actions",
    user: { id: input.slackUserId, username: input.slackUserId.toLowerCase() },
    actions: [{ action_id: input.actionId, value: input.value }],
    response_url: input.responseUrl,
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", input.signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
  return {
    body,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": signature,
    },
  };
}
