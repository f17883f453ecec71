import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  DeliveryStatus,
  type LastDelivery,
  LastDeliverySchema,
  type NotificationSettings,
  NotificationSettingsSchema,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import type { SecretBox } from "../connector/connector-api";
import { webhookHint } from "./chat-signature";
import { openSecret } from "./notification-delivery";
import type { DeliveryRow, NotificationSettingsRow } from "./notification-repository";

const STATUSES: Record<string, DeliveryStatus> = {
  SENT: DeliveryStatus.SENT,
  RETRYING: DeliveryStatus.RETRYING,
  FAILED: DeliveryStatus.FAILED,
};

function lastDelivery(row: DeliveryRow | undefined): LastDelivery | undefined {
  if (!row) return undefined;
  return create(LastDeliverySchema, {
    status: STATUSES[row.status] ?? DeliveryStatus.UNSPECIFIED,
    error: row.error,
    at: timestampFromDate(row.at),
    subject: row.subject,
  });
}

/** The settings as the page shows them: webhooks by a hint, other secrets only as "set". */
export function notificationSettingsMessage(
  deps: { secretBox: SecretBox; publicUrl: string },
  tenantId: string,
  row: NotificationSettingsRow | undefined,
  deliveries: DeliveryRow[],
): NotificationSettings {
  const of = (channel: string) => lastDelivery(deliveries.find((d) => d.channel === channel));
  const hint = (field: "slackWebhookUrl" | "teamsWebhookUrl") => {
    if (!row) return "";
    try {
      return webhookHint(openSecret(deps, row, field));
    } catch {
      return "(unreadable: enter it again)";
    }
  };
  return create(NotificationSettingsSchema, {
    events: {
      waiverPending: row?.onWaiverPending ?? true,
      waiverDecided: row?.onWaiverDecided ?? true,
      waiverExpiring: row?.onWaiverExpiring ?? true,
      deploymentFailed: row?.onDeploymentFailed ?? true,
    },
    email: { enabled: row?.emailEnabled ?? false, lastDelivery: of("email") },
    slack: {
      enabled: row?.slackEnabled ?? false,
      webhookUrlHint: hint("slackWebhookUrl"),
      hasSigningSecret: Boolean(row?.slackSigningSecret),
      hasBotToken: Boolean(row?.slackBotToken),
      interactivityUrl: `${deps.publicUrl}/api/chat/slack/${tenantId}/actions`,
      commandUrl: `${deps.publicUrl}/api/chat/slack/${tenantId}/commands`,
      lastDelivery: of("slack"),
    },
    teams: {
      enabled: row?.teamsEnabled ?? false,
      webhookUrlHint: hint("teamsWebhookUrl"),
      lastDelivery: of("teams"),
    },
  });
}
