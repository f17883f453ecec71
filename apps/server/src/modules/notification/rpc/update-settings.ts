import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  UpdateSettingsRequest,
  UpdateSettingsResponseSchema,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { type SecretField, secretContext } from "../notification-delivery";
import type { NotificationServiceDeps } from "../notification-deps";
import { notificationSettingsMessage } from "../notification-message";
import {
  findNotificationSettings,
  listDeliveries,
  saveNotificationSettings,
} from "../notification-repository";

const MAX_SECRET = 500;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A webhook must be https; plain http only to this machine (a local relay or a test receiver). */
function checkWebhook(field: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(`${field} is not a URL; paste the webhook address from Slack or Teams.`, [
      { field, message: "must be a URL" },
    ]);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    throw invalidArgument(`${field} must start with https://.`, [{ field, message: "must be an https URL" }]);
  }
}

export async function updateSettings(
  deps: NotificationServiceDeps,
  req: UpdateSettingsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UpdateSettingsResponseSchema>> {
  const { tenantId } = requireCaller(ctx);
  const current = await findNotificationSettings(deps.db, tenantId);
  const secrets: Partial<Record<SecretField, string | null>> = {};
  const given: [SecretField, string, string | undefined][] = [
    ["slackWebhookUrl", "slack_webhook_url", req.slackWebhookUrl],
    ["slackSigningSecret", "slack_signing_secret", req.slackSigningSecret],
    ["slackBotToken", "slack_bot_token", req.slackBotToken],
    ["teamsWebhookUrl", "teams_webhook_url", req.teamsWebhookUrl],
  ];
  for (const [field, name, raw] of given) {
    if (raw === undefined) continue;
    const value = raw.trim();
    if (value.length > MAX_SECRET) {
      throw invalidArgument(`${name} must be at most ${MAX_SECRET} characters.`, [
        { field: name, message: `at most ${MAX_SECRET} characters` },
      ]);
    }
    if (value && field.endsWith("WebhookUrl")) checkWebhook(name, value);
    secrets[field] = value ? deps.secretBox.seal(value, secretContext(tenantId, field)) : null;
  }
  const next = {
    onWaiverPending: req.events?.waiverPending ?? true,
    onWaiverDecided: req.events?.waiverDecided ?? true,
    onWaiverExpiring: req.events?.waiverExpiring ?? true,
    onDeploymentFailed: req.events?.deploymentFailed ?? true,
    emailEnabled: req.emailEnabled,
    slackEnabled: req.slackEnabled,
    teamsEnabled: req.teamsEnabled,
    slackWebhookUrl: current?.slackWebhookUrl ?? null,
    slackSigningSecret: current?.slackSigningSecret ?? null,
    slackBotToken: current?.slackBotToken ?? null,
    teamsWebhookUrl: current?.teamsWebhookUrl ?? null,
    ...secrets,
  };
  if (next.slackEnabled && !next.slackWebhookUrl) {
    throw invalidArgument("Slack needs its incoming webhook URL before it can be switched on.", [
      { field: "slack_webhook_url", message: "required to switch Slack on" },
    ]);
  }
  if (next.teamsEnabled && !next.teamsWebhookUrl) {
    throw invalidArgument("Teams needs its incoming webhook URL before it can be switched on.", [
      { field: "teams_webhook_url", message: "required to switch Teams on" },
    ]);
  }
  await deps.db.transaction(async (tx) => {
    await saveNotificationSettings(tx, tenantId, next);
    await recordAudit(tx, ctx, {
      target: { type: "tenant", id: tenantId },
      after: {
        emailEnabled: next.emailEnabled,
        slackEnabled: next.slackEnabled,
        teamsEnabled: next.teamsEnabled,
        secretsChanged: Object.keys(secrets),
      },
    });
  });
  const row = await findNotificationSettings(deps.db, tenantId);
  return {
    settings: notificationSettingsMessage(deps, tenantId, row, await listDeliveries(deps.db, tenantId)),
  };
}
