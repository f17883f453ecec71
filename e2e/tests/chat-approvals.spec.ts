import { expect, request, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";
import { chatReceiverURL, type SlackReceiver, slackButtonPress, startSlackReceiver } from "./support/chat";
import { awsNodeNamed, deployBundle } from "./support/deploy-bundle";
import { invitationPathFor, verificationPathFor } from "./support/outbox";
import { adminApi, callAsAdmin } from "./support/waiver-bundle";

const SIGNING_SECRET = "e2e-slack-signing-secret-0123456789";
const BOT_TOKEN = "xoxb-e2e-bot-token";
const APPROVER_SLACK_ID = "U_APPROVER";

let slack: SlackReceiver;
let manualKey = "";

/** A moderator who approves from Slack: signed up, invited and accepted, as a real member would. */
async function addApprover(): Promise<string> {
  const since = Date.now();
  const email = `approver-${since}@palisade.test`;
  const member = await request.newContext({ baseURL });
  try {
    const signUp = await member.post("/api/auth/sign-up/email", {
      data: { email, password: "Approver-password-1", name: "Avery Approver" },
      headers: { Origin: baseURL },
    });
    expect(signUp.ok(), await signUp.text()).toBe(true);
    // The confirmation link proves the address and signs the new account in.
    const verified = await member.get(await verificationPathFor(email, since), { maxRedirects: 0 });
    expect(verified.status(), await verified.text()).toBeLessThan(400);
    const api = await adminApi();
    await callAsAdmin(api, "palisade.team.v1.TeamService/InviteMember", { email, role: "ROLE_MODERATOR" });
    await api.dispose();
    const token = (await invitationPathFor(email)).split("/").pop();
    const accepted = await member.post("/palisade.team.v1.TeamService/AcceptInvitation", {
      data: { token },
      headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);
  } finally {
    await member.dispose();
  }
  return email;
}

/** A PREVENT bundle whose waivers a reviewer approves (MANUAL), deployed on the Workloads OU. */
async function deployManualBundle(): Promise<string> {
  const api = await adminApi();
  try {
    const { key } = await deployBundle(api, {
      name: "Internet gateways by review",
      policySlug: "restrict-internet-gateway-changes",
      scope: await awsNodeNamed(api, "Workloads"),
      approvalMode: "WAIVER_APPROVAL_MODE_MANUAL",
    });
    return key;
  } finally {
    await api.dispose();
  }
}

test.use({ storageState: adminStorageState });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  slack = await startSlackReceiver(BOT_TOKEN);
  slack.users.set(APPROVER_SLACK_ID, await addApprover());
  manualKey = await deployManualBundle();
  // Slack as an administrator sets it up (the first test does the same through the page).
  const api = await adminApi();
  await callAsAdmin(api, "palisade.notification.v1.NotificationService/UpdateSettings", {
    events: { waiverPending: true, waiverDecided: true, waiverExpiring: true, deploymentFailed: true },
    slackEnabled: true,
    slackWebhookUrl: `${chatReceiverURL}/slack-webhook/T0E2E/B0E2E/secretpart`,
    slackSigningSecret: SIGNING_SECRET,
    slackBotToken: BOT_TOKEN,
  });
  await api.dispose();
});

test.afterAll(async () => {
  await slack?.stop();
});

test("the notifications page saves a Slack webhook and shows where Slack must call back", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings/notifications");
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel("Post to Slack").check();
  await page
    .getByLabel("Incoming webhook URL")
    .first()
    .fill(`${chatReceiverURL}/slack-webhook/T0E2E/B0E2E/secretpart`);
  await page.getByLabel("Signing secret").fill(SIGNING_SECRET);
  await page.getByLabel("Bot token").fill(BOT_TOKEN);
  await page.getByRole("button", { name: "Save notification settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.reload();
  await expect(page.getByLabel("Post to Slack")).toBeChecked();
  // Stored, shown by a hint: never the secret part, never the signing secret.
  const webhook = page.getByLabel("Incoming webhook URL").first();
  await expect(webhook).toHaveValue("");
  await expect(webhook).toHaveAttribute(
    "placeholder",
    /^Saved: http:\/\/127\.0\.0\.1:\d+\/slack-webho… \(type to replace\)$/,
  );
  await expect(page.getByLabel("Signing secret")).toHaveAttribute("placeholder", "Saved (type to replace)");
  await expect(page.locator("body")).not.toContainText("secretpart");
  await expect(page.getByText(/\/api\/chat\/slack\/[^/]+\/actions$/)).toBeVisible();
});

test("a MANUAL waiver requested on /req turns active on the open page when approved from Slack", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`/req?k=${manualKey}`);
  await page.getByLabel("Waiver Reason").fill(`Replacing the gateway of the build VPC (${Date.now()})`);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator('[data-testid="waiver-outcome"][data-status="pending"]')).toBeVisible();

  // The reviewers' channel receives the request with Approve and Reject.
  let button: { action_id?: string; value?: string } | undefined;
  await expect
    .poll(
      () => {
        const message = slack.received.find(
          (r) => r.path.startsWith("/slack-webhook/") && JSON.stringify(r.body).includes(manualKey),
        );
        const blocks = (message?.body.blocks ?? []) as {
          type: string;
          elements?: { action_id?: string; value?: string }[];
        }[];
        button = blocks
          .find((b) => b.type === "actions")
          ?.elements?.find((e) => e.action_id === "waiver_approve");
        return button?.value;
      },
      { timeout: 30_000, message: "the Slack message with Approve" },
    )
    .toBeTruthy();

  // The approver presses Approve: Slack posts the signed action back to Palisade.
  const settings = await page.request.post("/palisade.notification.v1.NotificationService/GetSettings", {
    data: {},
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
  });
  const interactivityUrl = ((await settings.json()) as { settings: { slack: { interactivityUrl: string } } })
    .settings.slack.interactivityUrl;
  const press = slackButtonPress({
    signingSecret: SIGNING_SECRET,
    slackUserId: APPROVER_SLACK_ID,
    actionId: "waiver_approve",
    value: button?.value ?? "",
    responseUrl: `${chatReceiverURL}/slack-response/e2e`,
  });
  const callback = await request.newContext();
  const answer = await callback.post(new URL(new URL(interactivityUrl).pathname, baseURL).toString(), {
    headers: press.headers,
    data: press.body,
  });
  expect(await answer.json()).toMatchObject({
    ok: true,
    text: expect.stringContaining("Approved by Avery Approver"),
  });
  await callback.dispose();

  // The requester's page follows without a reload.
  await expect(page.locator('[data-testid="waiver-outcome"][data-status="active"]')).toBeVisible({
    timeout: 30_000,
  });
  // And the Slack card now says who approved it.
  await expect
    .poll(() =>
      slack.received.some(
        (r) =>
          r.path === "/slack-response/e2e" && JSON.stringify(r.body).includes("Approved by Avery Approver"),
      ),
    )
    .toBe(true);
});
