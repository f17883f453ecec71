import { createServer, type Server } from "node:http";

export interface Received {
  path: string;
  body: unknown;
}

/**
 * Slack and Teams as Palisade sees them, on loopback: incoming webhooks that keep what they
 * receive, a response_url, Slack's users.info, and a webhook that always fails.
 */
export interface ChatReceiver {
  url: string;
  received: Received[];
  /** Slack user id -> e-mail address answered by users.info. */
  slackUsers: Map<string, string>;
  /** Bodies the failing webhook refused. */
  broken: string[];
  stop(): Promise<void>;
}

export async function startChatReceiver(botToken: string): Promise<ChatReceiver> {
  const receiver: ChatReceiver = {
    url: "",
    received: [],
    slackUsers: new Map(),
    broken: [],
    stop: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/slack-api/users.info") {
        const email =
          request.headers.authorization === `Bearer ${botToken}`
            ? receiver.slackUsers.get(url.searchParams.get("user") ?? "")
            : undefined;
        response.setHeader("content-type", "application/json");
        response.end(
          JSON.stringify(
            email ? { ok: true, user: { profile: { email } } } : { ok: false, error: "user_not_found" },
          ),
        );
        return;
      }
      if (url.pathname === "/broken") {
        receiver.broken.push(Buffer.concat(chunks).toString("utf8"));
        response.statusCode = 500;
        response.end("internal_error");
        return;
      }
      const text = Buffer.concat(chunks).toString("utf8");
      receiver.received.push({ path: url.pathname, body: text ? JSON.parse(text) : undefined });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("receiver has no port");
  receiver.url = `http://127.0.0.1:${address.port}`;
  receiver.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
