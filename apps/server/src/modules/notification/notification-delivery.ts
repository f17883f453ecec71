import { createHash } from "node:crypto";
import type { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { rolePermissions } from "@palisade/api/roles";
import { roleName } from "../../auth/roles";
import type { Database } from "../../db/database";
import type {
  DeliverPayload,
  DeliveryOutcome,
  NotificationChannel,
  NotificationEvent,
} from "../../jobs/notification-job";
import type { MailSender } from "../../mail/mail-sender";
import type { SecretBox } from "../connector/connector-api";
import { findWaiver, requiresSeparateApprover } from "../waiver/waiver-api";
import type { ChatTokens } from "./chat-signature";
import {
  composeNotice,
  type Notice,
  type NoticeContext,
  noticeMail,
  slackMessage,
  teamsMessage,
} from "./notification-compose";
import {
  findBundleSummary,
  findNotificationSettings,
  insertNonce,
  membersWithRoles,
  type NotificationSettingsRow,
  recordDelivery,
} from "./notification-repository";

export interface NotificationDeps {
  db: Database;
  secretBox: SecretBox;
  tokens: ChatTokens;
  publicUrl: string;
  mail: MailSender;
  /** Slack's Web API (users.info maps who pressed a button to an e-mail address). */
  slackApiUrl: string;
}

export type SecretField = "slackWebhookUrl" | "slackSigningSecret" | "slackBotToken" | "teamsWebhookUrl";

/** Secrets are sealed to their tenant and field: a value copied to another row does not open. */
export function secretContext(tenantId: string, field: SecretField): string {
  return `notification:${tenantId}:${field}`;
}

export function openSecret(
  deps: { secretBox: SecretBox },
  row: NotificationSettingsRow,
  field: SecretField,
): string | undefined {
  const sealed = row[field];
  return sealed ? deps.secretBox.open(sealed, secretContext(row.tenantId, field)) : undefined;
}

const SUBJECTS: Record<NotificationEvent["kind"], string> = {
  "waiver.pending": "waiver pending",
  "waiver.decided": "waiver decided",
  "waiver.expiring": "waiver expiring",
  "deployment.failed": "deployment failed",
};

function wanted(settings: NotificationSettingsRow, event: NotificationEvent): boolean {
  switch (event.kind) {
    case "waiver.pending":
      return settings.onWaiverPending;
    case "waiver.decided":
      return settings.onWaiverDecided;
    case "waiver.expiring":
      return settings.onWaiverExpiring;
    case "deployment.failed":
      return settings.onDeploymentFailed;
  }
}

/** The channels the tenant switched on and configured for this kind of event. */
export async function channelsFor(
  deps: { db: Database },
  event: NotificationEvent,
): Promise<NotificationChannel[]> {
  const settings = await findNotificationSettings(deps.db, event.tenantId);
  if (!settings || !wanted(settings, event)) return [];
  const channels: NotificationChannel[] = [];
  if (settings.emailEnabled) channels.push("email");
  if (settings.slackEnabled && settings.slackWebhookUrl) channels.push("slack");
  if (settings.teamsEnabled && settings.teamsWebhookUrl) channels.push("teams");
  return channels;
}

/** What the event is about, as it is now; undefined when there is no longer anything to say. */
async function contextOf(db: Database, event: NotificationEvent): Promise<NoticeContext | undefined> {
  if (event.kind === "deployment.failed") {
    const bundle = await findBundleSummary(db, event.tenantId, event.bundleId);
    return bundle?.status === "FAILED"
      ? { kind: "bundle", bundle: { ...bundle, id: event.bundleId } }
      : undefined;
  }
  const waiver = await findWaiver(db, event.tenantId, event.waiverId);
  if (!waiver) return undefined;
  if (event.kind === "waiver.pending" && waiver.status !== "PENDING") return undefined;
  if (
    event.kind === "waiver.expiring" &&
    (waiver.status !== "ACTIVE" || waiver.expiresAt?.toISOString() !== event.expiresAt)
  ) {
    return undefined;
  }
  return { kind: "waiver", waiver };
}

function rolesWith(permission: Permission): string[] {
  return Object.entries(rolePermissions)
    .filter(([, permissions]) => permissions.includes(permission))
    .map(([role]) => roleName(Number(role) as Role));
}

async function mailRecipients(
  db: Database,
  event: NotificationEvent,
  context: NoticeContext,
): Promise<string[]> {
  if (context.kind === "bundle") {
    return (await membersWithRoles(db, event.tenantId, rolesWith(Permission.POLICIES_WRITE_PREVENT))).map(
      (m) => m.email,
    );
  }
  const { waiver } = context;
  if (event.kind === "waiver.pending") {
    const approvers = await membersWithRoles(db, event.tenantId, rolesWith(Permission.WAIVERS_UPDATE));
    const separate = await requiresSeparateApprover(db, event.tenantId);
    return approvers
      .filter(
        (m) => !separate || (m.userId !== waiver.requesterUserId && m.email !== waiver.requesterIdentifier),
      )
      .map((m) => m.email);
  }
  return waiver.requesterIdentifier.includes("@") ? [waiver.requesterIdentifier] : [];
}

/** Posts JSON to a webhook; the error names the answer, never the address (it is the secret). */
export async function postJson(url: string, body: unknown, service: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
      redirect: "error",
    });
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError" ? "did not answer within 10 seconds" : "could not be reached";
    throw new Error(`${service} webhook ${reason}`);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => "")).replace(/\s+/g, " ").slice(0, 120);
    throw new Error(`${service} answered ${response.status}${text ? `: ${text}` : ""}`);
  }
}

/** The Approve and Reject links of a Teams card: signed, single-use, expiring. */
async function teamsLinks(deps: NotificationDeps, tenantId: string, notice: Notice) {
  if (!notice.decide) return undefined;
  const links: Record<"approve" | "reject", string> = { approve: "", reject: "" };
  for (const action of ["approve", "reject"] as const) {
    const issued = deps.tokens.issue({ tenantId, waiverId: notice.decide.waiverId, action });
    await insertNonce(deps.db, tenantId, {
      id: issued.nonce,
      kind: "teams-token",
      expiresAt: new Date(issued.expiresAt),
    });
    links[action] = `${deps.publicUrl}/chat/decide?token=${encodeURIComponent(issued.token)}`;
  }
  return links;
}

/** Sends one event on one channel; false when there was nothing (left) to send. */
export async function deliverNotification(deps: NotificationDeps, payload: DeliverPayload): Promise<boolean> {
  const { db } = deps;
  const { event, channel } = payload;
  const settings = await findNotificationSettings(db, event.tenantId);
  // Switched off since it was queued: nothing is sent.
  if (!settings || !wanted(settings, event)) return false;
  const context = await contextOf(db, event);
  if (!context) return false;
  const notice = composeNotice(event, context, deps.publicUrl);
  if (channel === "slack") {
    const url = settings.slackEnabled ? openSecret(deps, settings, "slackWebhookUrl") : undefined;
    if (!url) return false;
    await postJson(url, slackMessage(notice), "Slack");
    return true;
  }
  if (channel === "teams") {
    const url = settings.teamsEnabled ? openSecret(deps, settings, "teamsWebhookUrl") : undefined;
    if (!url) return false;
    await postJson(url, teamsMessage(notice, await teamsLinks(deps, event.tenantId, notice)), "Teams");
    return true;
  }
  if (!settings.emailEnabled) return false;
  const recipients = await mailRecipients(db, event, context);
  if (recipients.length === 0) return false;
  const key = event.kind === "deployment.failed" ? event.bundleId : event.waiverId;
  for (const to of recipients) {
    const recipient = createHash("sha256").update(to).digest("hex").slice(0, 16);
    await deps.mail.send(noticeMail(notice, to), {
      key: `${event.kind.replace(".", "-")}-${key}-${recipient}`,
      link: notice.link,
    });
  }
  return true;
}

export async function recordNotificationOutcome(
  db: Database,
  payload: DeliverPayload,
  outcome: DeliveryOutcome,
): Promise<void> {
  await recordDelivery(db, payload.event.tenantId, payload.channel, {
    status: outcome.status.toUpperCase(),
    error: outcome.status === "sent" ? "" : outcome.error.slice(0, 300),
    subject: SUBJECTS[payload.event.kind],
  });
}
