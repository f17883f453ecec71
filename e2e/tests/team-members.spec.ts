import { expect, test } from "@playwright/test";
import { adminEmail, adminStorageState, baseURL } from "./support/admin";
import { newMember } from "./support/members";
import { signInWithPassword } from "./support/session";
import { answerGetCurrentWithPermissions } from "./support/tenant-read";

test.use({ storageState: adminStorageState });

test("the administrator sees themself, invites two addresses, resends one and revokes the other", async ({
  page,
}) => {
  await page.goto("/team-members");
  await expect(page.getByRole("heading", { name: "Team members", level: 1 })).toBeVisible();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row").filter({ hasText: adminEmail })).toBeVisible();

  const addresses = page.getByLabel("E-mail addresses");
  await addresses.fill("not-an-email");
  await addresses.blur();
  await expect(page.getByText('"not-an-email" is not a valid email')).toBeVisible();

  const stamp = Date.now();
  const first = `first-${stamp}@palisade.test`;
  const second = `second-${stamp}@palisade.test`;
  await addresses.fill(`${first}, ${second}`);
  await page.getByRole("button", { name: "Invite 2 people" }).click();
  const results = page.getByRole("list", { name: "Invitation results" });
  await expect(results.getByText(`${first}: invitation sent`)).toBeVisible();
  await expect(results.getByText(`${second}: invitation sent`)).toBeVisible();

  const pending = page.getByRole("table", { name: "Pending invitations" });
  const firstRow = pending.getByRole("row").filter({ hasText: first });
  const secondRow = pending.getByRole("row").filter({ hasText: second });
  await expect(firstRow).toBeVisible();
  await expect(secondRow).toBeVisible();

  await secondRow.getByRole("button", { name: "Resend" }).click();
  await expect(secondRow.getByRole("button", { name: "Sent again" })).toBeVisible();

  await firstRow.getByRole("button", { name: `Revoke the invitation to ${first}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Revoke the invitation to ${first}?` });
  await confirm.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(confirm).toBeHidden();
  await expect(firstRow).toHaveCount(0);
  await expect(secondRow).toBeVisible();
});

test.describe("API keys", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("creates a key, shows and copies its secret once, and revokes it", async ({ page }) => {
    await page.goto("/team-members");
    const name = `CI ${Date.now()}`;
    await page.getByRole("button", { name: "Create API key" }).click();
    const create = page.getByRole("dialog", { name: "Create API key" });
    await create.getByLabel("Name").fill(name);
    await create.getByRole("button", { name: "Create key" }).click();

    const shown = page.getByRole("dialog", { name: `API key “${name}” created` });
    const secret = (await shown.getByTestId("api-key-secret").textContent()) ?? "";
    expect(secret).toMatch(/^pal_/);
    await shown.getByRole("button", { name: "Copy the key" }).click();
    await expect(shown.getByRole("button", { name: "Copy the key" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(shown).toBeHidden();

    const keys = page.getByRole("table", { name: "API keys" });
    const row = keys.getByRole("row").filter({ hasText: name });
    await expect(row).toBeVisible();
    // The list never shows the secret again, only its first characters.
    await expect(page.getByText(secret)).toHaveCount(0);

    await row.getByRole("button", { name: `Revoke the API key ${name}` }).click();
    const confirm = page.getByRole("alertdialog", { name: `Revoke the API key “${name}”?` });
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toHaveCount(0);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the page never scrolls sideways; the tables scroll inside their cards", async ({ page }) => {
    await page.goto(`${baseURL}/team-members`);
    await expect(page.getByRole("table", { name: "Members" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Pending invitations" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test("a member who may only read sees the lists without the controls that change them", async ({ page }) => {
  // The server's answer with USERS_WRITE taken away; the server itself would refuse the changes.
  await answerGetCurrentWithPermissions(page, ["PERMISSION_USERS_READ"]);
  await page.goto("/team-members");
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row").filter({ hasText: adminEmail })).toBeVisible();
  await expect(members.getByRole("combobox")).toHaveCount(0);
  await expect(members.getByRole("button")).toHaveCount(0);
  await expect(page.getByLabel("E-mail addresses")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Resend" })).toHaveCount(0);
});

test("the administrator signs a member out everywhere; the member's next page is the sign-in page", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const password = "Sign-out-everywhere-1";
  const email = await newMember("signout", password);
  const memberContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const memberPage = await memberContext.newPage();
  await memberPage.goto("/");
  await signInWithPassword(memberPage, email, password);
  await expect(memberPage).toHaveURL(`${baseURL}/dashboard`, { timeout: 30_000 });

  await page.goto("/team-members");
  await page.getByLabel("Search members").fill(email);
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row")).toHaveCount(2);
  await members.getByRole("button", { name: "Sign Pat signout out everywhere" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Sign Pat signout out everywhere?" });
  await expect(dialog).toContainText("Every session they have ends now");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  // The invitation's acceptance signed them in too: two sessions end.
  await expect(page.getByText("Pat signout is signed out everywhere (2 sessions ended).")).toBeVisible();

  // The member's next request finds the session ended.
  await memberPage.goto("/events");
  await expect(memberPage).toHaveURL((url) => url.pathname === "/");
  await expect(memberPage.getByLabel("E-mail")).toBeVisible();
  await memberContext.close();
});
