import { expect as baseExpect, test } from "@playwright/test";
import { adminEmail, baseURL } from "./support/admin";
import { signInLinkPathFor } from "./support/outbox";

test.use({ viewport: { width: 390, height: 844 } });
// Two browsers and the mail job: slow on a busy machine.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

test("signs in with an e-mailed link, which works once", async ({ page, browser }) => {
  await page.goto("/");
  await page.getByLabel("E-mail").fill(adminEmail);
  await page.getByRole("button", { name: "Continue" }).click();
  const requestedAt = Date.now();
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("status")).toContainText(`If ${adminEmail} has a Palisade account`);
  await expect(page.getByRole("button", { name: /Send a new link in \d+ s/ })).toBeDisabled();

  // The link is opened in another browser, as from a phone's mail app.
  const link = await signInLinkPathFor(adminEmail, requestedAt);
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await other.newPage();
  await phone.goto(link);
  await expect(phone.getByRole("heading", { name: "Sign in to Palisade" })).toBeVisible();
  await phone.getByRole("link", { name: "Sign in" }).click();
  await expect(phone).toHaveURL(`${baseURL}/dashboard`);
  await expect(phone.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The same link again signs nobody in.
  await phone.context().clearCookies();
  await phone.goto(link);
  await phone.getByRole("link", { name: "Sign in" }).click();
  await expect(phone.getByRole("heading", { name: "This sign-in link no longer works" })).toBeVisible();
  await other.close();
});
