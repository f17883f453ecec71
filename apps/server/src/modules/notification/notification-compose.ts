import type { NotificationEvent } from "../../jobs/notification-job";
import { escapeHtml, type MailMessage } from "../../mail/mail-templates";
import type { WaiverView } from "../waiver/waiver-api";

/** What every channel says about one event, before it is shaped for Slack, Teams or e-mail. */
export interface Notice {
  /** Short name of the kind, recorded as the channel's last delivery ("waiver pending"). */
  subject: string;
  title: string;
  lines: string[];
  /** Where to see it in Palisade. */
  link: string;
  /** A pending waiver: the chat message carries Approve and Reject. */
  decide?: { waiverId: string };
}

export type NoticeContext =
  | { kind: "waiver"; waiver: WaiverView }
  | { kind: "bundle"; bundle: { id: string; name: string; key: string; errorCodes: string[] } };

function hours(seconds: number): string {
  const h = Math.round(seconds / 3_600);
  return `${h} hour${h === 1 ? "" : "s"}`;
}

/** Absolute times in chat and mail are UTC, said so. */
function utc(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 16).replace("T", " ")} UTC` : "not set";
}

function target(waiver: WaiverView): string {
  return waiver.scope ?? waiver.resource ?? waiver.principalArn ?? "every scope of the policy";
}

export function composeNotice(event: NotificationEvent, context: NoticeContext, publicUrl: string): Notice {
  if (context.kind === "bundle") {
    const { bundle } = context;
    return {
      subject: "deployment failed",
      title: `Policy ${bundle.name} (${bundle.key}) failed to deploy`,
      lines: [
        bundle.errorCodes.length > 0
          ? `Error: ${bundle.errorCodes.join(", ")}`
          : "The cloud refused the policy.",
        "Open the policy to see which scopes failed and why, then fix the connector or the bundle and deploy again.",
      ],
      link: `${publicUrl}/policies/${bundle.id}`,
    };
  }
  const { waiver } = context;
  const link = `${publicUrl}/policies/${waiver.bundleId}?tab=waivers`;
  const facts = [
    `Policy: ${waiver.bundleName} (${waiver.policyKey})`,
    `Scope: ${target(waiver)}`,
    `Requested by: ${waiver.requesterName} <${waiver.requesterIdentifier}>`,
    `Reason: ${waiver.comment}`,
  ];
  switch (event.kind) {
    case "waiver.pending":
      return {
        subject: "waiver pending",
        title: `Waiver for ${waiver.bundleName} (${waiver.policyKey}) waits for approval`,
        lines: [...facts, `Duration asked: ${hours(waiver.durationSeconds)}`],
        link,
        decide: { waiverId: waiver.id },
      };
    case "waiver.decided": {
      const approved = waiver.status === "ACTIVE";
      return {
        subject: "waiver decided",
        title: `Waiver for ${waiver.bundleName} (${waiver.policyKey}) ${approved ? "approved" : waiver.status.toLowerCase()}`,
        lines: [
          ...facts,
          `Decided by: ${waiver.reviewerName ?? "Palisade"}`,
          approved ? `Active until: ${utc(waiver.expiresAt)}` : "The action stays denied.",
        ],
        link,
      };
    }
    case "waiver.expiring":
      return {
        subject: "waiver expiring",
        title: `Waiver for ${waiver.bundleName} (${waiver.policyKey}) ends at ${utc(waiver.expiresAt)}`,
        lines: [...facts, "Request a new waiver before then if the work is not finished."],
        link: `${publicUrl}/req?k=${waiver.policyKey}`,
      };
    default:
      throw new Error(`No notice for ${event.kind}`);
  }
}

function slackText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export const SLACK_APPROVE = "waiver_approve";
export const SLACK_REJECT = "waiver_reject";

/** A Slack message (incoming webhook or response_url) with Block Kit blocks. */
export function slackMessage(notice: Notice, outcome?: string): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [
    { type: "section", text: { type: "mrkdwn", text: `*${slackText(notice.title)}*` } },
    { type: "section", text: { type: "mrkdwn", text: notice.lines.map(slackText).join("\n") } },
    { type: "context", elements: [{ type: "mrkdwn", text: `<${notice.link}|Open in Palisade>` }] },
  ];
  if (outcome) {
    blocks.push({ type: "section", text: { type: "mrkdwn", text: slackText(outcome) } });
  } else if (notice.decide) {
    blocks.push({
      type: "actions",
      elements: [
        {
          type: "button",
          action_id: SLACK_APPROVE,
          style: "primary",
          text: { type: "plain_text", text: "Approve" },
          value: notice.decide.waiverId,
        },
        {
          type: "button",
          action_id: SLACK_REJECT,
          style: "danger",
          text: { type: "plain_text", text: "Reject" },
          value: notice.decide.waiverId,
        },
      ],
    });
  }
  return { text: notice.title, blocks };
}

/** A Teams message with an Adaptive Card; `links` are the signed Approve / Reject addresses. */
export function teamsMessage(
  notice: Notice,
  links?: { approve: string; reject: string },
  outcome?: string,
): Record<string, unknown> {
  const body: Record<string, unknown>[] = [
    { type: "TextBlock", text: notice.title, weight: "Bolder", wrap: true },
    ...notice.lines.map((line) => ({ type: "TextBlock", text: line, wrap: true, spacing: "Small" })),
  ];
  if (outcome) body.push({ type: "TextBlock", text: outcome, wrap: true, color: "Accent" });
  const actions: Record<string, unknown>[] = [];
  if (links) {
    actions.push({ type: "Action.OpenUrl", title: "Approve", url: links.approve, style: "positive" });
    actions.push({ type: "Action.OpenUrl", title: "Reject", url: links.reject, style: "destructive" });
  }
  actions.push({ type: "Action.OpenUrl", title: "Open in Palisade", url: notice.link });
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body,
          actions,
        },
      },
    ],
  };
}

export function noticeMail(notice: Notice, to: string): MailMessage {
  const text = [notice.title, "", ...notice.lines, "", `Open in Palisade: ${notice.link}`, ""].join("\n");
  const html = [
    `<p><strong>${escapeHtml(notice.title)}</strong></p>`,
    `<p>${notice.lines.map(escapeHtml).join("<br>")}</p>`,
    `<p><a href="${escapeHtml(notice.link)}">Open in Palisade</a></p>`,
  ].join("\n");
  return { to, subject: `Palisade: ${notice.title}`, text, html };
}
