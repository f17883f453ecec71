import type {
  NotificationEvents,
  NotificationSettings,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { useQuery } from "@tanstack/react-query";
import { LoaderIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { describeError } from "@/lib/error-text";
import { notificationSettingsQuery, useUpdateNotificationSettings } from "../api/notification-queries";
import { secretPlaceholder } from "../delivery-label";
import { CopyLine, LastDeliveryLine, SecretField, Toggle } from "./channel-parts";

type EventName = "waiverPending" | "waiverDecided" | "waiverExpiring" | "deploymentFailed";

const EVENTS: { name: EventName; label: string; description: string }[] = [
  {
    name: "waiverPending",
    label: "A waiver waits for approval",
    description: "To the members who may approve it; in chat with Approve and Reject.",
  },
  { name: "waiverDecided", label: "A waiver was approved or rejected", description: "To its requester." },
  {
    name: "waiverExpiring",
    label: "A waiver is about to expire",
    description: "To its requester, two hours before it ends.",
  },
  {
    name: "deploymentFailed",
    label: "A policy failed to deploy",
    description: "To the members who deploy policies.",
  },
];

interface Draft {
  events: Record<EventName, boolean>;
  emailEnabled: boolean;
  slackEnabled: boolean;
  teamsEnabled: boolean;
  slackWebhookUrl: string;
  slackSigningSecret: string;
  slackBotToken: string;
  teamsWebhookUrl: string;
}

function draftOf(settings: NotificationSettings | undefined): Draft {
  const events = settings?.events as NotificationEvents | undefined;
  return {
    events: {
      waiverPending: events?.waiverPending ?? true,
      waiverDecided: events?.waiverDecided ?? true,
      waiverExpiring: events?.waiverExpiring ?? true,
      deploymentFailed: events?.deploymentFailed ?? true,
    },
    emailEnabled: settings?.email?.enabled ?? false,
    slackEnabled: settings?.slack?.enabled ?? false,
    teamsEnabled: settings?.teams?.enabled ?? false,
    slackWebhookUrl: "",
    slackSigningSecret: "",
    slackBotToken: "",
    teamsWebhookUrl: "",
  };
}

/** Only typed secrets are sent: an empty field keeps what is stored. */
function secretsOf(draft: Draft) {
  const typed = (value: string) => (value.trim() ? value.trim() : undefined);
  return {
    slackWebhookUrl: typed(draft.slackWebhookUrl),
    slackSigningSecret: typed(draft.slackSigningSecret),
    slackBotToken: typed(draft.slackBotToken),
    teamsWebhookUrl: typed(draft.teamsWebhookUrl),
  };
}

function SettingsForm({ settings }: { settings: NotificationSettings }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [saved, setSaved] = useState(false);
  const update = useUpdateNotificationSettings();
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft((current) => ({ ...current, ...patch }));
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    try {
      await update.mutateAsync({
        events: draft.events,
        emailEnabled: draft.emailEnabled,
        slackEnabled: draft.slackEnabled,
        teamsEnabled: draft.teamsEnabled,
        ...secretsOf(draft),
      });
      setDraft((current) => ({
        ...current,
        slackWebhookUrl: "",
        slackSigningSecret: "",
        slackBotToken: "",
        teamsWebhookUrl: "",
      }));
      setSaved(true);
    } catch {
      // Shown below from the mutation's error.
    }
  };
  const slack = settings.slack;
  const teams = settings.teams;
  return (
    <form className="space-y-4" onSubmit={onSubmit} aria-label="Notification settings">
      <Card>
        <CardHeader>
          <CardTitle>What to tell</CardTitle>
          <CardDescription>These apply to every channel switched on below.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          {EVENTS.map((item) => (
            <Toggle
              key={item.name}
              id={`event-${item.name}`}
              label={item.label}
              description={item.description}
              checked={draft.events[item.name]}
              onChange={(checked) => set({ events: { ...draft.events, [item.name]: checked } })}
            />
          ))}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>E-mail</CardTitle>
          <CardDescription>
            Sent through the server's mail settings (SMTP_URL, or the outbox folder).
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <Toggle
            id="email-enabled"
            label="Send e-mail"
            checked={draft.emailEnabled}
            onChange={(emailEnabled) => set({ emailEnabled })}
          />
          <LastDeliveryLine delivery={settings.email?.lastDelivery} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Slack</CardTitle>
          <CardDescription>
            A Slack app with an incoming webhook posts the notifications; its interactivity lets reviewers
            approve or reject from the message, and a slash command requests waivers.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <Toggle
            id="slack-enabled"
            label="Post to Slack"
            checked={draft.slackEnabled}
            onChange={(slackEnabled) => set({ slackEnabled })}
          />
          <SecretField
            id="slack-webhook"
            label="Incoming webhook URL"
            type="url"
            value={draft.slackWebhookUrl}
            placeholder={secretPlaceholder(slack?.webhookUrlHint ?? "", "https://hooks.slack.com/services/…")}
            onChange={(slackWebhookUrl) => set({ slackWebhookUrl })}
          />
          <SecretField
            id="slack-signing-secret"
            label="Signing secret"
            value={draft.slackSigningSecret}
            placeholder={secretPlaceholder(
              slack?.hasSigningSecret ?? false,
              "From the app's Basic Information page",
            )}
            help="Checks that button presses and commands really come from your Slack app."
            onChange={(slackSigningSecret) => set({ slackSigningSecret })}
          />
          <SecretField
            id="slack-bot-token"
            label="Bot token"
            value={draft.slackBotToken}
            placeholder={secretPlaceholder(slack?.hasBotToken ?? false, "xoxb-…")}
            help="With the users:read.email scope: Palisade finds the member who pressed a button by their e-mail address."
            onChange={(slackBotToken) => set({ slackBotToken })}
          />
          {slack && (
            <div className="grid gap-3 sm:grid-cols-2">
              <CopyLine label="Interactivity request URL" value={slack.interactivityUrl} />
              <CopyLine label="Slash command request URL (/waiver)" value={slack.commandUrl} />
            </div>
          )}
          <LastDeliveryLine delivery={slack?.lastDelivery} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Microsoft Teams</CardTitle>
          <CardDescription>
            An incoming webhook posts an Adaptive Card; its Approve and Reject open Palisade with a single-use
            link that expires after 24 hours.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <Toggle
            id="teams-enabled"
            label="Post to Teams"
            checked={draft.teamsEnabled}
            onChange={(teamsEnabled) => set({ teamsEnabled })}
          />
          <SecretField
            id="teams-webhook"
            label="Incoming webhook URL"
            type="url"
            value={draft.teamsWebhookUrl}
            placeholder={secretPlaceholder(teams?.webhookUrlHint ?? "", "https://….webhook.office.com/…")}
            onChange={(teamsWebhookUrl) => set({ teamsWebhookUrl })}
          />
          <LastDeliveryLine delivery={teams?.lastDelivery} />
        </CardContent>
      </Card>

      {update.isError && (
        <Alert variant="destructive">
          <AlertTitle>Not saved</AlertTitle>
          <AlertDescription>{describeError(update.error).message}</AlertDescription>
        </Alert>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <LoaderIcon className="animate-spin" />}
          Save notification settings
        </Button>
        {saved && (
          <p role="status" className="text-sm text-success">
            Saved.
          </p>
        )}
      </div>
    </form>
  );
}

/** /settings/notifications: what the tenant is told, on which channels, and how the last delivery went. */
export function NotificationSettingsPage() {
  const query = useQuery(notificationSettingsQuery());
  return (
    <div className="space-y-6">
      <PageHeader
        title="Notifications"
        description="E-mail, Slack and Teams messages about waivers and deployments; reviewers approve waivers from the chat message."
      />
      {query.isPending ? (
        <Skeleton className="h-96 w-full" />
      ) : query.isError ? (
        <Alert variant="destructive">
          <AlertTitle>{describeError(query.error).title}</AlertTitle>
          <AlertDescription>{describeError(query.error).message}</AlertDescription>
        </Alert>
      ) : (
        <SettingsForm settings={query.data.settings ?? ({} as NotificationSettings)} />
      )}
    </div>
  );
}
