import { randomBytes } from "node:crypto";
import { Code } from "@connectrpc/connect";
import {
  DeliveryStatus,
  NotificationService,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import {
  WaiverAnalyticsService,
  WaiverSuggestion,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { WaiverCreateSource, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { generatePolicyKey } from "@palisade/policy-engine/keys/policy-key";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "../src/modules/audit/audit-schema";
import { bundles, deployments } from "../src/modules/deployment/deployment-schema";
import { policyEvents } from "../src/modules/event/event-schema";
import { createChatTokens, slackSignature } from "../src/modules/notification/chat-signature";
import { chatNonces } from "../src/modules/notification/notification-schema";
import { waivers } from "../src/modules/waiver/waiver-schema";
import { loadSecretKey } from "../src/secrets";
import { errorOf } from "./support/call-error";
import { type ChatReceiver, type Received, startChatReceiver } from "./support/chat-receiver";
import { waitFor } from "./support/poll";
import { engines } from "./support/test-database";
import { type Credentials, startTestServer, type TestServer } from "./support/test-server";

const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const BOT_TOKEN = "xoxb-test-bot-token-123456";
const HOUR = 3_600n;

type SlackMessage = {
  text: string;
  blocks: { type: string; elements?: { action_id?: string; value?: string }[] }[];
};
type TeamsMessage = { attachments: { content: { actions: { title: string; url: string }[] } }[] };

describe.each(engines)("notifications and approvals in chat on %s", (engine) => {
  let server: TestServer;
  let chat: ChatReceiver;
  const as: Record<string, Credentials> = {};
  const emails: Record<string, string> = {};

  beforeAll(async () => {
    chat = await startChatReceiver(BOT_TOKEN);
    server = await startTestServer(engine, {
      NOTIFY_RETRY_LIMIT: "2",
      NOTIFY_RETRY_DELAY_SECONDS: "1",
      SLACK_API_URL: `${chat.url}/slack-api`,
    });
    for (const [who, role] of [
      ["admin", "ADMINISTRATOR"],
      ["mona", "MODERATOR"],
      ["vic", "VIEWER"],
      ["rita", "MODERATOR"],
    ] as const) {
      emails[who] = `${who}-${engine}@palisade.test`;
      as[who] = (await server.addMember({ role, email: emails[who], name: `${who} person` })).credentials;
      chat.slackUsers.set(`U_${who.toUpperCase()}`, emails[who]);
    }
    await server.client(NotificationService, as.admin).updateSettings({
      events: { waiverPending: true, waiverDecided: true, waiverExpiring: true, deploymentFailed: true },
      emailEnabled: true,
      slackEnabled: true,
      teamsEnabled: true,
      slackWebhookUrl: `${chat.url}/slack-webhook/T000/B000/secretpart`,
      slackSigningSecret: SIGNING_SECRET,
      slackBotToken: BOT_TOKEN,
      teamsWebhookUrl: `${chat.url}/teams-webhook/secretpart`,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await chat?.stop();
  });

  const db = () => server.palisade.database.db;
  const waiverOf = async (id: string) => (await db().select().from(waivers).where(eq(waivers.id, id)))[0];

  async function seedBundle(approval: "AUTO" | "MANUAL", scopes = ["111122223333"]) {
    const key = generatePolicyKey((n) => randomBytes(n));
    const [bundle] = await db()
      .insert(bundles)
      .values({
        tenantId: server.defaultTenantId,
        key,
        name: `Deny public S3 ${key}`,
        policySlug: "aws-s3-deny-public-access-change",
        provider: "AWS",
        mode: "PREVENT",
        status: "DEPLOYED",
        scopes: scopes.map((id) => ({ id })),
        waiverApprovalMode: approval,
        createdBy: "seed",
      })
      .returning();
    if (!bundle) throw new Error("no bundle");
    const rows = await db()
      .insert(deployments)
      .values(
        scopes.map((scope) => ({
          tenantId: server.defaultTenantId,
          bundleId: bundle.id,
          key,
          scope: { id: scope },
          scopeExternalId: scope,
          mode: "PREVENT",
          status: "DEPLOYED",
          policySlug: bundle.policySlug,
          name: bundle.name,
          createdBy: "seed",
        })),
      )
      .returning();
    return { bundleId: bundle.id, key, deploymentIds: rows.map((r) => r.id) };
  }

  /** A MANUAL waiver requested by Rita, and the Slack and Teams messages announcing it. */
  async function pendingWaiver() {
    const seeded = await seedBundle("MANUAL");
    const { waiver } = await server
      .client(WaiverService, as.rita)
      .create({ key: seeded.key, duration: 2n * HOUR, comment: "rotate the bucket policy" });
    const id = waiver?.entity?.id ?? "";
    const mentions = (r: Received) => JSON.stringify(r.body).includes(id);
    const slack = await waitFor("the Slack message", async () =>
      chat.received.find((r) => r.path.startsWith("/slack-webhook/") && mentions(r)),
    );
    const teams = await waitFor("the Teams card", async () =>
      chat.received.find(
        (r) => r.path.startsWith("/teams-webhook/") && JSON.stringify(r.body).includes(seeded.key),
      ),
    );
    return { id, seeded, slack: slack.body as SlackMessage, teams: teams.body as TeamsMessage };
  }

  function slackAction(
    slackUser: string,
    actionId: string,
    waiverId: string,
    options: { secret?: string; ts?: number } = {},
  ) {
    const payload = {
      type: "block_actions",
      user: { id: slackUser, username: slackUser.toLowerCase() },
      actions: [{ action_id: actionId, value: waiverId }],
      response_url: `${chat.url}/slack-response/${waiverId}`,
    };
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const timestamp = String(options.ts ?? Math.floor(Date.now() / 1000));
    return {
      body,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": slackSignature(options.secret ?? SIGNING_SECRET, timestamp, body),
      },
    };
  }

  const slackPost = (
    path: "actions" | "commands",
    request: { body: string; headers: Record<string, string> },
  ) =>
    fetch(`${server.url}/api/chat/slack/${server.defaultTenantId}/${path}`, {
      method: "POST",
      headers: request.headers,
      body: request.body,
    });

  it("shows the channels without their secrets", async () => {
    const { settings } = await server.client(NotificationService, as.admin).getSettings({});
    const text = JSON.stringify(settings, (_k, v) => (typeof v === "bigint" ? String(v) : v));
    expect(text).not.toContain(SIGNING_SECRET);
    expect(text).not.toContain(BOT_TOKEN);
    expect(text).not.toContain("secretpart");
    expect(settings?.slack).toMatchObject({ enabled: true, hasSigningSecret: true, hasBotToken: true });
    expect(settings?.slack?.interactivityUrl).toMatch(
      new RegExp(`/api/chat/slack/${server.defaultTenantId}/actions$`),
    );
    const refused = await errorOf(server.client(NotificationService, as.mona).getSettings({}));
    expect(refused.code).toBe(Code.PermissionDenied);
  });

  it("posts a pending waiver to Slack with Approve and Reject, and verifies who presses them", async () => {
    const { id, slack } = await pendingWaiver();
    const buttons = slack.blocks.find((b) => b.type === "actions")?.elements ?? [];
    expect(buttons.map((b) => [b.action_id, b.value])).toEqual([
      ["waiver_approve", id],
      ["waiver_reject", id],
    ]);

    // Signed with another secret: refused.
    const forged = await slackPost(
      "actions",
      slackAction("U_MONA", "waiver_approve", id, { secret: "not-the-secret" }),
    );
    expect(forged.status).toBe(401);
    // Correctly signed six minutes ago: refused.
    const old = await slackPost(
      "actions",
      slackAction("U_MONA", "waiver_approve", id, { ts: Math.floor(Date.now() / 1000) - 360 }),
    );
    expect(old.status).toBe(401);
    expect(await old.text()).toContain("too old");

    // A viewer may not decide.
    const viewer = await slackPost("actions", slackAction("U_VIC", "waiver_approve", id));
    expect(viewer.status).toBe(200);
    expect(await viewer.json()).toMatchObject({ ok: false, text: expect.stringContaining("WAIVERS_UPDATE") });
    // Nor the requester, though she holds WAIVERS_UPDATE.
    const own = await slackPost("actions", slackAction("U_RITA", "waiver_approve", id));
    expect(await own.json()).toMatchObject({
      ok: false,
      text: expect.stringContaining("You requested this waiver"),
    });
    expect((await waiverOf(id))?.status).toBe("PENDING");
    const refusal = await waitFor("the refusal in Slack", async () =>
      chat.received.find((r) => r.path === `/slack-response/${id}`),
    );
    expect(refusal.body).toMatchObject({ response_type: "ephemeral", replace_original: false });

    const approve = slackAction("U_MONA", "waiver_approve", id);
    const approved = await slackPost("actions", approve);
    expect(await approved.json()).toMatchObject({
      ok: true,
      text: expect.stringContaining("Approved by mona person"),
    });
    const row = await waiverOf(id);
    expect(row).toMatchObject({ status: "ACTIVE", reviewerIdentifier: emails.mona });
    // The same signed request again is a replay.
    const replay = await slackPost("actions", approve);
    expect(replay.status).toBe(409);

    // The card in Slack is replaced by the outcome, without buttons.
    const update = await waitFor("the updated Slack card", async () =>
      chat.received.find(
        (r) =>
          r.path === `/slack-response/${id}` &&
          (r.body as { replace_original?: boolean }).replace_original === true,
      ),
    );
    expect(JSON.stringify(update.body)).toContain("Approved by mona person");
    expect(JSON.stringify(update.body)).not.toContain("waiver_approve");
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, id), eq(auditLog.action, "WaiverService.Approve")));
    expect(audit).toMatchObject({ actorName: "mona person" });
    expect(audit?.after).toMatchObject({ via: "slack", chatUser: "slack:U_MONA u_mona" });
    // The requester hears about the decision on the channel.
    await waitFor("the decision in Slack", async () =>
      chat.received.find(
        (r) => r.path.startsWith("/slack-webhook/") && JSON.stringify(r.body).includes("approved"),
      ),
    );
    // This bundle has no connector, so applying the approved waiver fails the deployment: said too.
    const failure = await waitFor("the failed deployment in Slack", async () =>
      chat.received.find(
        (r) => r.path.startsWith("/slack-webhook/") && JSON.stringify(r.body).includes("failed to deploy"),
      ),
    );
    expect(JSON.stringify(failure.body)).toContain("Open in Palisade");
  });

  it("takes a Teams card's Approve link once, and not after it expired", async () => {
    const { id, teams } = await pendingWaiver();
    const actions = teams.attachments[0]?.content.actions ?? [];
    const approveUrl = new URL(actions.find((a) => a.title === "Approve")?.url ?? "");
    expect(approveUrl.pathname).toBe("/chat/decide");
    const token = approveUrl.searchParams.get("token") ?? "";

    const viewer = await errorOf(server.client(NotificationService, as.vic).decideFromChat({ token }));
    expect(viewer.code).toBe(Code.PermissionDenied);
    const requester = await errorOf(server.client(NotificationService, as.rita).decideFromChat({ token }));
    expect(requester.code).toBe(Code.PermissionDenied);
    expect(requester.rawMessage).toContain("You requested this waiver");

    // The requester's refused attempt spent the link; a fresh card link is needed.
    const again = await errorOf(server.client(NotificationService, as.mona).decideFromChat({ token }));
    expect(again.rawMessage).toContain("already used");

    const tokens = createChatTokens(loadSecretKey(server.dataDir));
    const fresh = tokens.issue({ tenantId: server.defaultTenantId, waiverId: id, action: "approve" });
    await db()
      .insert(chatNonces)
      .values({
        id: fresh.nonce,
        tenantId: server.defaultTenantId,
        kind: "teams-token",
        expiresAt: new Date(fresh.expiresAt),
      });
    const decided = await server.client(NotificationService, as.mona).decideFromChat({ token: fresh.token });
    expect(decided.decision).toBe(WaiverStatus.ACTIVE);
    expect(decided.waiver?.reviewer?.identifier).toBe(emails.mona);
    const reused = await errorOf(
      server.client(NotificationService, as.mona).decideFromChat({ token: fresh.token }),
    );
    expect(reused.code).toBe(Code.FailedPrecondition);
    expect(reused.rawMessage).toContain("already used");

    const stale = tokens.issue(
      { tenantId: server.defaultTenantId, waiverId: id, action: "reject" },
      Date.now() - 25 * 3_600_000,
    );
    await db()
      .insert(chatNonces)
      .values({
        id: stale.nonce,
        tenantId: server.defaultTenantId,
        kind: "teams-token",
        expiresAt: new Date(stale.expiresAt),
      });
    const expired = await errorOf(
      server.client(NotificationService, as.mona).decideFromChat({ token: stale.token }),
    );
    expect(expired.rawMessage).toContain("expired");
    const tampered = await errorOf(
      server.client(NotificationService, as.mona).decideFromChat({ token: `${fresh.token.slice(0, -2)}xx` }),
    );
    expect(tampered.code).toBe(Code.InvalidArgument);
  });

  it("requests a waiver from a Slack command", async () => {
    const seeded = await seedBundle("MANUAL");
    const body = new URLSearchParams({
      command: "/waiver",
      text: `${seeded.key.toLowerCase()} 3 hotfix for the billing outage`,
      user_id: "U_VIC",
      user_name: "vic",
      response_url: `${chat.url}/slack-response/command`,
    }).toString();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await slackPost("commands", {
      body,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": slackSignature(SIGNING_SECRET, timestamp, body),
      },
    });
    const answer = (await response.json()) as { text: string; waiver_id: string; status: string };
    expect(answer.text).toContain("waits for approval");
    const row = await waiverOf(answer.waiver_id);
    expect(row).toMatchObject({
      status: "PENDING",
      createSource: "TEAMS",
      requesterIdentifier: emails.vic,
      durationSeconds: 3 * 3_600,
    });
    const { items } = await server.client(WaiverService, as.admin).list({ filter: { key: seeded.key } });
    expect(items[0]?.createSource).toBe(WaiverCreateSource.TEAMS);
  });

  it("retries a failing webhook, then shows that it gave up", async () => {
    const notifications = server.client(NotificationService, as.admin);
    await notifications.updateSettings({
      events: { waiverPending: true, waiverDecided: false, waiverExpiring: false, deploymentFailed: false },
      emailEnabled: true,
      slackEnabled: true,
      teamsEnabled: true,
      slackWebhookUrl: `${chat.url}/broken`,
    });
    const seeded = await seedBundle("MANUAL");
    await server
      .client(WaiverService, as.rita)
      .create({ key: seeded.key, duration: HOUR, comment: "one more" });
    const retrying = await waitFor("a retry", async () => {
      const { settings } = await notifications.getSettings({});
      return settings?.slack?.lastDelivery?.status === DeliveryStatus.RETRYING && settings.slack.lastDelivery;
    });
    expect(retrying.error).toContain("Slack answered 500");
    const failed = await waitFor("giving up", async () => {
      const { settings } = await notifications.getSettings({});
      const last = settings?.slack?.lastDelivery;
      const attempts = chat.broken.filter((body) => body.includes(seeded.key)).length;
      return (
        last?.status === DeliveryStatus.FAILED && last.subject === "waiver pending" && attempts >= 3 && last
      );
    });
    expect(failed).toMatchObject({
      subject: "waiver pending",
      error: expect.stringContaining("internal_error"),
    });
    expect(failed.error).not.toContain(chat.url);
    // The first attempt and both retries, then nothing more.
    expect(
      chat.broken.filter((body) => body.includes(seeded.key) && body.includes("waits for approval")),
    ).toHaveLength(3);
    const { settings } = await notifications.getSettings({});
    expect(settings?.teams?.lastDelivery?.status).toBe(DeliveryStatus.SENT);
    expect(settings?.email?.lastDelivery?.status).toBe(DeliveryStatus.SENT);
  });

  it("lists the waivers expiring soon, soonest first", async () => {
    const seeded = await seedBundle("AUTO");
    const waiverClient = server.client(WaiverService, as.rita);
    const short = await waiverClient.create({ key: seeded.key, duration: HOUR, comment: "short one" });
    await waiverClient.create({ key: seeded.key, duration: 30n * HOUR, comment: "long one" });
    const { items } = await server
      .client(WaiverService, as.admin)
      .list({ filter: { key: seeded.key, expiringWithinHours: 24 } });
    expect(items.map((w) => w.entity?.id)).toEqual([short.waiver?.entity?.id]);
    const refused = await errorOf(
      server.client(WaiverService, as.admin).list({ filter: { key: seeded.key, expiringWithinHours: 1000 } }),
    );
    expect(refused.code).toBe(Code.InvalidArgument);
  });

  it("computes waiver analytics per policy", async () => {
    const busy = await seedBundle("AUTO", ["111122223333", "444455556666"]);
    const quiet = await seedBundle("AUTO");
    const [deploymentA, deploymentB] = busy.deploymentIds as [string, string];
    const now = Date.now();
    const ago = (hours: number) => new Date(now - hours * 3_600_000);
    const base = {
      tenantId: server.defaultTenantId,
      policyKey: busy.key,
      createSource: "FORM",
      requesterName: "Seed",
      requesterIdentifier: "seed@palisade.test",
      comment: "seeded",
      approvalType: "AUTO",
    };
    await db()
      .insert(waivers)
      .values([
        {
          ...base,
          deploymentId: deploymentA,
          scope: "111122223333",
          durationSeconds: 3_600,
          status: "EXPIRED",
          expiresAt: ago(40),
          createdAt: ago(41),
        },
        {
          ...base,
          deploymentId: deploymentA,
          scope: "111122223333",
          durationSeconds: 7_200,
          status: "EXPIRED",
          expiresAt: ago(20),
          createdAt: ago(22),
        },
        {
          ...base,
          deploymentId: deploymentA,
          scope: "111122223333",
          durationSeconds: 14_400,
          status: "EXPIRED",
          expiresAt: ago(2),
          createdAt: ago(6),
        },
        {
          ...base,
          deploymentId: deploymentB,
          scope: "444455556666",
          durationSeconds: 28_800,
          status: "REJECTED",
          approvalType: "MANUAL",
          createdAt: ago(10),
        },
        {
          ...base,
          policyKey: quiet.key,
          deploymentId: quiet.deploymentIds[0] as string,
          scope: "111122223333",
          durationSeconds: 3_600,
          status: "EXPIRED",
          expiresAt: ago(30),
          createdAt: ago(31),
        },
      ]);
    // Something went through the second waiver while it ran.
    await db()
      .insert(policyEvents)
      .values({
        tenantId: server.defaultTenantId,
        providerEventId: `seed-${busy.key}`,
        type: "WAIVED",
        cloudProvider: "AWS",
        deploymentId: deploymentA,
        bundleId: busy.bundleId,
        occurredAt: ago(21),
      });
    const analytics = server.client(WaiverAnalyticsService, as.vic);
    const { policies } = await analytics.analytics({ days: 30, bundleId: busy.bundleId });
    expect(policies).toHaveLength(1);
    expect(policies[0]).toMatchObject({
      policyKey: busy.key,
      requests: 4,
      approvalRate: 0.75,
      medianHoursAsked: 3,
      neverUsed: 2,
      topScope: "111122223333",
      topScopeRequests: 3,
      repeatedlyWaived: true,
      suggestion: WaiverSuggestion.EXCLUDE_SCOPE,
    });
    const all = await analytics.analytics({});
    const quietRow = all.policies.find((p) => p.policyKey === quiet.key);
    expect(quietRow).toMatchObject({
      requests: 1,
      approvalRate: 1,
      neverUsed: 1,
      suggestion: WaiverSuggestion.KEEP,
    });
    const refused = await errorOf(server.client(WaiverAnalyticsService, { kind: "none" }).analytics({}));
    expect(refused.code).toBe(Code.Unauthenticated);
  });
});
