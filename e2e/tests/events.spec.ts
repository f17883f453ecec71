import { expect, request, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";
import { awsNodeNamed, deployBundle, flatten } from "./support/deploy-bundle";
import { sandboxURL } from "./support/sandbox";
import { answerGetCurrentWithPermissions } from "./support/tenant-read";
import { callAsAdmin } from "./support/waiver-bundle";

test.use({ storageState: adminStorageState });

const bundleName = "Keep Glacier vaults (events test)";

let account = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const api = await request.newContext({ baseURL, storageState: adminStorageState });
  try {
    const ou = await awsNodeNamed(api, "Security");
    account =
      flatten(ou.children ?? []).find((node) => node.type === "SCOPE_TYPE_AWS_ACCOUNT")?.externalId ?? "";
    const { items = [] } = await callAsAdmin<{ items?: { bundle?: { name?: string } }[] }>(
      api,
      "palisade.deployment.v1.DeploymentManagerService/ListBundle",
      { filter: { policySlugs: ["deny-glacier-vault-deletion"] } },
    );
    if (!items.some((item) => item.bundle?.name === bundleName)) {
      await deployBundle(api, {
        name: bundleName,
        policySlug: "deny-glacier-vault-deletion",
        scope: ou,
        approvalMode: "WAIVER_APPROVAL_MODE_MANUAL",
      });
    }
  } finally {
    await api.dispose();
  }
});

test("a denied action appears on the events page once the events are fetched", async ({ page }) => {
  test.setTimeout(90_000);
  const cloud = await request.newContext();
  try {
    const denied = await cloud.post(`${sandboxURL}/sandbox/try`, {
      data: {
        provider: "aws",
        principal: "user/alice",
        account,
        action: "glacier:DeleteVault",
        resource: "*",
      },
    });
    expect(denied.status()).toBe(403);
  } finally {
    await cloud.dispose();
  }

  await page.goto("/events");
  // Another bundle of the same policy on the OU may be the one the cloud names in the deny.
  const row = page
    .getByTestId("event-row")
    .filter({ hasText: "glacier:DeleteVault" })
    .filter({ hasText: "alice" });
  // The organisation trail delivers the call's log file a moment later: fetch again until it is in.
  await expect(async () => {
    await page.getByRole("button", { name: "Fetch events now" }).click();
    await page.waitForTimeout(1_000);
    await page.reload();
    await expect(row.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(row.first()).toContainText("Prevented");
  await expect(row.first()).toContainText("log-archive");
  await expect(page.getByRole("definition").first()).not.toHaveText("0");

  // The type filter lives in the address and narrows the list.
  await page.getByRole("button", { name: "Alert", exact: true }).click();
  await expect(page).toHaveURL(/type=alert/);
  await expect(row).toHaveCount(0);
  await page.getByRole("button", { name: "Alert", exact: true }).click();
  await page.getByRole("button", { name: "Prevented", exact: true }).click();
  await expect(page).toHaveURL(/type=prevented/);
  await expect(row.first()).toBeVisible();

  // Dismissed events leave the list and come back when asked for.
  await row.first().getByRole("button", { name: "Dismiss", exact: true }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Dismiss this event?");
  await confirm.getByLabel("Reason (optional)").fill("Known test account");
  await confirm.getByRole("button", { name: "Dismiss event" }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole("button", { name: "Dismissed", exact: true }).click();
  await expect(row.first()).toContainText("Dismissed");
  await row.first().getByRole("button", { name: "Undismiss" }).click();
  await expect(row.first().getByRole("button", { name: "Dismiss", exact: true })).toBeVisible();

  // In the every-event view one event is dismissed, after the same confirmation.
  await page.goto("/events?view=events&type=prevented");
  await row.first().getByRole("button", { name: "Dismiss", exact: true }).click();
  const confirmOne = page.getByRole("alertdialog");
  await expect(confirmOne).toContainText("Dismiss this event?");
  await expect(confirmOne).toContainText("The reason is kept in the audit log.");
  await confirmOne.getByRole("button", { name: "Cancel" }).click();
  await expect(row.first()).not.toContainText("Dismissed");
  await row.first().getByRole("button", { name: "Dismiss", exact: true }).click();
  await confirmOne.getByLabel("Reason (optional)").fill("Known test account, one event");
  await confirmOne.getByRole("button", { name: "Dismiss event" }).click();
  await expect(row.first()).toContainText("Dismissed");
  await row.first().getByRole("button", { name: "Undismiss" }).click();
  await expect(row.first().getByRole("button", { name: "Dismiss", exact: true })).toBeVisible();

  // The policy's own events tab lists the same event.
  await page.goto("/events?type=prevented");
  await row.first().locator('a[href^="/policies/"]').click();
  await page.getByRole("tab", { name: "Events" }).click();
  await expect(page).toHaveURL(/tab=events/);
  await expect(page.getByTestId("event-row").first()).toContainText("glacier:DeleteVault");
});

test("hides dismiss from a user without the permission", async ({ page }) => {
  await answerGetCurrentWithPermissions(page, ["PERMISSION_EVENTS_READ"]);
  await page.goto("/events");
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Fetch events now" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Dismiss", exact: true })).toHaveCount(0);
});
