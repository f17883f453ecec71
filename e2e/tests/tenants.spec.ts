import { type Browser, expect as baseExpect, type Page, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";
import { signInCodeFor } from "./support/outbox";
import { submitSignIn } from "./support/session";
import { adminApi, callAsAdmin, type DeployedBundle, deployWaiverBundle } from "./support/waiver-bundle";

const requesterDomain = "requesters.test";

// These tests walk through several pages each, on a machine that may be busy.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/** A fresh session of the administrator, so the shared one keeps its tenant. */
async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto("/");
  await submitSignIn(page);
  await expect(page).toHaveURL((url) => url.pathname === "/dashboard");
  return page;
}

async function switchTenant(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "Switch tenant" }).click();
  await page.getByRole("menuitem", { name }).click();
  await expect(page.getByRole("button", { name: "Switch tenant" })).toContainText(name);
}

test("an instance administrator creates a second tenant and switches between the two", async ({
  browser,
}) => {
  const page = await adminPage(browser);
  const name = `Payments ${Date.now()}`;
  const switcher = page.getByRole("button", { name: "Switch tenant" });
  await expect(switcher).toContainText("Default");

  await switcher.click();
  await page.getByRole("menuitem", { name: "New tenant" }).click();
  const dialog = page.getByRole("dialog", { name: "New tenant" });
  await dialog.getByRole("button", { name: "Create tenant" }).click();
  await expect(dialog.getByText("Tenant name must be 1 to 100 characters.")).toBeVisible();
  await dialog.getByLabel("Tenant name").fill(name);
  await dialog.getByRole("button", { name: "Create tenant" }).click();
  await expect(dialog).toBeHidden();
  // The new tenant is the active one, with the creator as its only member.
  await expect(switcher).toContainText(name);
  await page.getByRole("link", { name: "Settings" }).first().click();
  await expect(page.getByLabel("Tenant name")).toHaveValue(name);
  await page.goto("/team-members");
  await expect(page.getByRole("table", { name: "Members" }).getByRole("row")).toHaveCount(2);

  await switchTenant(page, "Default");
  await page.goto("/settings");
  await expect(page.getByLabel("Tenant name")).toHaveValue("Default");
  await switchTenant(page, name);
  await expect(page.getByLabel("Tenant name")).toHaveValue(name);
  // Back where the other tests expect the administrator to start.
  await switchTenant(page, "Default");
  await page.context().close();
});

test.describe("the denied engineer's path", () => {
  let bundle: DeployedBundle;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    bundle = await deployWaiverBundle();
  });
  // The bundle is shared with other specs, which expect its guardrail to deny again.
  test.afterAll(async () => {
    const api = await adminApi();
    await callAsAdmin(api, "palisade.waiver.v1.WaiverService/Cancel", { policyKey: bundle.key });
    await api.dispose();
  });

  test.describe("settings", () => {
    test.use({ storageState: adminStorageState });

    test("the administrator lists the requester domain on the settings page", async ({ page }) => {
      await page.goto("/settings");
      const domains = page.getByLabel("Waiver requester domains");
      await domains.fill("*.corp");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByText('"*.corp" is not an e-mail domain')).toBeVisible();
      await domains.fill(`${requesterDomain}\n`);
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByRole("status")).toHaveText("Saved");
      await page.reload();
      await expect(page.getByLabel("Waiver requester domains")).toHaveValue(requesterDomain);
    });
  });

  test("a signed-out engineer submits with an e-mailed code and the waiver is active", async ({
    page,
    browser,
  }) => {
    const email = `engineer-${Date.now()}@${requesterDomain}`;
    const reason = `Restoring the export bucket for INC-${Date.now()}`;
    await page.goto(`/req?k=${bundle.key}`);
    await expect(page.getByRole("heading", { name: "Welcome Guest" })).toBeVisible();
    await page.getByLabel("Waiver Reason").fill(reason);
    await page.getByRole("button", { name: "Submit" }).click();

    const dialog = page.getByRole("dialog", { name: "Confirm your work e-mail" });
    await dialog.getByLabel("Work e-mail").fill("someone@elsewhere.test");
    await dialog.getByRole("button", { name: "E-mail me a code" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Ask an administrator of Default to invite you");

    await dialog.getByLabel("Work e-mail").fill(email);
    const since = Date.now();
    await dialog.getByRole("button", { name: "E-mail me a code" }).click();
    const codeDialog = page.getByRole("dialog", { name: "Enter the code" });
    await expect(codeDialog).toContainText(`We sent a 6-digit code to ${email}`);
    const code = await signInCodeFor(email, since);
    await codeDialog.getByLabel("Code").fill(code);
    await codeDialog.getByRole("button", { name: "Verify and submit" }).click();

    await expect(page.locator('[data-testid="waiver-outcome"][data-status="active"]')).toBeVisible();
    // Greeted by the name the new account holds, not by the e-mail address.
    await expect(
      page.getByRole("heading", { level: 1, name: `Welcome ${email.split("@")[0]}` }),
    ).toBeVisible();

    // The administrators see the new visitor among the members.
    const admin = await browser.newContext({ baseURL, storageState: adminStorageState });
    const adminTab = await admin.newPage();
    await adminTab.goto("/team-members");
    const row = adminTab.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: email });
    await expect(row).toContainText("Visitor");
    await admin.close();
  });
});
