import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ConnectError } from "@connectrpc/connect";
import type { FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from "fastify";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import { createRateLimiter } from "../../rpc/rate-limiter";
import { findWaiver, type WaiverFitCheck } from "../waiver/waiver-api";
import { ChatRefusal, decideFromChat } from "./chat-decision";
import { requestWaiverFromChat } from "./chat-request";
import { SLACK_MAX_AGE_SECONDS, verifySlackSignature } from "./chat-signature";
import { composeNotice, SLACK_APPROVE, SLACK_REJECT, slackMessage } from "./notification-compose";
import { type NotificationDeps, openSecret, postJson } from "./notification-delivery";
import { findNotificationSettings, insertNonce } from "./notification-repository";

type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, Logger>;
type Params = { tenantId: string };

const MAX_BODY = 64 * 1024;
const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface SignedSlackRequest {
  tenantId: string;
  fields: URLSearchParams;
  botToken: string | undefined;
}

/** Slack's Web API: who a Slack user is, by the e-mail address of their profile. */
async function slackEmail(
  apiUrl: string,
  botToken: string | undefined,
  slackUserId: string,
): Promise<string> {
  if (!botToken) {
    throw new ChatRefusal(
      "Palisade cannot tell who you are: its Slack settings need a bot token with the users:read.email scope.",
    );
  }
  const response = await fetch(`${apiUrl}/users.info?user=${encodeURIComponent(slackUserId)}`, {
    headers: { authorization: `Bearer ${botToken}` },
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
  const body = (await response?.json().catch(() => undefined)) as
    | { ok?: boolean; user?: { profile?: { email?: string } } }
    | undefined;
  const email = body?.ok ? body.user?.profile?.email : undefined;
  if (!email)
    throw new ChatRefusal(
      "Slack did not tell Palisade your e-mail address, so the action was not carried out.",
    );
  return email.toLowerCase();
}

/**
 * Slack's interactive buttons and slash command, verified with the tenant's signing secret: the
 * signature over the raw body, a timestamp within five minutes, and each signed request once.
 */
export function registerChatRoutes(
  app: App,
  deps: NotificationDeps & { jobs: JobQueue; logger: Logger; fits: WaiverFitCheck },
): void {
  const { db, logger } = deps;
  const limiter = createRateLimiter(db, { burst: 30, perSecond: 5 }, "chat.slack");

  async function verified(
    request: FastifyRequest<{ Params: Params; Body: string }>,
    reply: FastifyReply,
  ): Promise<SignedSlackRequest | undefined> {
    if (!(await limiter.take(request.ip)).allowed) {
      await reply.code(429).send({ error: "Too many requests; try again in a minute." });
      return undefined;
    }
    const { tenantId } = request.params;
    const settings = TENANT_ID.test(tenantId) ? await findNotificationSettings(db, tenantId) : undefined;
    const secret = settings?.slackEnabled ? openSecret(deps, settings, "slackSigningSecret") : undefined;
    if (!settings || !secret) {
      await reply.code(404).send({ error: "Slack is not set up for this tenant." });
      return undefined;
    }
    const rawBody = typeof request.body === "string" ? request.body : "";
    const timestamp = request.headers["x-slack-request-timestamp"];
    const signature = request.headers["x-slack-signature"];
    const check = verifySlackSignature({
      signingSecret: secret,
      timestamp: typeof timestamp === "string" ? timestamp : undefined,
      signature: typeof signature === "string" ? signature : undefined,
      rawBody,
    });
    if (!check.ok) {
      logger.warn({ component: "chat", tenantId, reason: check.reason }, "Slack request refused");
      await reply.code(401).send({ error: `Request refused: ${check.reason}.` });
      return undefined;
    }
    const fresh = await insertNonce(db, tenantId, {
      id: `slack:${createHash("sha256").update(String(signature)).digest("hex")}`,
      kind: "slack-request",
      expiresAt: new Date((Number(timestamp) + SLACK_MAX_AGE_SECONDS) * 1_000),
    });
    if (!fresh) {
      logger.warn({ component: "chat", tenantId }, "Slack request replayed");
      await reply.code(409).send({ error: "Request refused: already received." });
      return undefined;
    }
    return {
      tenantId,
      fields: new URLSearchParams(rawBody),
      botToken: openSecret(deps, settings, "slackBotToken"),
    };
  }

  app.register(async (scope) => {
    // The signature covers the raw body: these routes read it as text and parse it themselves.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: MAX_BODY }, (_request, body, done) =>
      done(null, body),
    );

    scope.post<{ Params: Params; Body: string }>(
      "/api/chat/slack/:tenantId/actions",
      async (request, reply) => {
        const signed = await verified(request, reply);
        if (!signed) return reply;
        let payload: {
          type?: string;
          user?: { id?: string; username?: string };
          actions?: { action_id?: string; value?: string }[];
          response_url?: string;
        };
        try {
          payload = JSON.parse(signed.fields.get("payload") ?? "");
        } catch {
          return reply.code(400).send({ error: "The payload is not JSON." });
        }
        const action = payload.actions?.[0];
        const decision =
          action?.action_id === SLACK_APPROVE
            ? "approve"
            : action?.action_id === SLACK_REJECT
              ? "reject"
              : undefined;
        if (payload.type !== "block_actions" || !decision || !action?.value || !payload.user?.id) {
          return reply.code(200).send({ ok: true, text: "Nothing to do." });
        }
        const chatUser = `slack:${payload.user.id} ${payload.user.username ?? ""}`.trim();
        let outcome: { ok: boolean; text: string };
        let replace: Record<string, unknown> | undefined;
        try {
          const email = await slackEmail(deps.slackApiUrl, signed.botToken, payload.user.id);
          const waiver = await decideFromChat(deps, {
            tenantId: signed.tenantId,
            waiverId: action.value.slice(0, 64),
            action: decision,
            approverEmail: email,
            chatUser,
            source: "slack",
          });
          const text = `${decision === "approve" ? "Approved" : "Rejected"} by ${waiver.reviewerName} (${email}) from Slack.`;
          outcome = { ok: true, text };
          const notice = composeNotice(
            { kind: "waiver.pending", tenantId: signed.tenantId, waiverId: waiver.id },
            { kind: "waiver", waiver },
            deps.publicUrl,
          );
          replace = { replace_original: true, ...slackMessage(notice, text) };
        } catch (error) {
          if (!(error instanceof ChatRefusal)) throw error;
          outcome = { ok: false, text: error.message };
        }
        if (payload.response_url) {
          const message = replace ?? {
            response_type: "ephemeral",
            replace_original: false,
            text: outcome.text,
          };
          await postJson(payload.response_url, message, "Slack").catch((error: Error) =>
            logger.warn({ component: "chat", err: error.message }, "Slack response_url refused the update"),
          );
        }
        return reply.code(200).send(outcome);
      },
    );

    scope.post<{ Params: Params; Body: string }>(
      "/api/chat/slack/:tenantId/commands",
      async (request, reply) => {
        const signed = await verified(request, reply);
        if (!signed) return reply;
        const slackUser = signed.fields.get("user_id") ?? "";
        const chatUser = `slack:${slackUser} ${signed.fields.get("user_name") ?? ""}`.trim();
        try {
          const email = await slackEmail(deps.slackApiUrl, signed.botToken, slackUser);
          const waiver = await requestWaiverFromChat(deps, {
            tenantId: signed.tenantId,
            requesterEmail: email,
            chatUser,
            text: (signed.fields.get("text") ?? "").slice(0, 1_000),
          });
          const stored = (await findWaiver(db, signed.tenantId, waiver.id)) ?? waiver;
          const text =
            stored.status === "ACTIVE"
              ? `Waiver ${stored.policyKey} approved: you can proceed until ${stored.expiresAt?.toISOString().slice(0, 16).replace("T", " ")} UTC.`
              : `Waiver ${stored.policyKey} requested: it waits for approval by a reviewer; you will be told here when it is decided.`;
          return reply
            .code(200)
            .send({ response_type: "ephemeral", text, waiver_id: stored.id, status: stored.status });
        } catch (error) {
          const text =
            error instanceof ChatRefusal
              ? error.message
              : error instanceof ConnectError
                ? error.rawMessage
                : undefined;
          if (text === undefined) throw error;
          return reply.code(200).send({ response_type: "ephemeral", text });
        }
      },
    );
  });
}
