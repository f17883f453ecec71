import { expect as baseExpect, test } from "@playwright/test";
import { adminEmail, baseURL } from "./support/admin";
import { enchantedLinkPathsFor } from "./support/outbox";

test.use({ viewport: { width: 390, height: 844 } });
// Two browsers and the mail job: slow on a busy machine.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

test("the page that asked for a link to confirm signs in by itself once its number is opened elsewhere", async ({
  page,
  browser,
}) => {
  await page.goto("/");
  await page.getByLabel("E-mail").fill(adminEmail);
  await page.getByRole("button", { name: "Continue" }).click();
  const requestedAt = Date.now();
  await page.getByRole("button", { name: "Send me a link to confirm" }).click();
  const shown = page.getByRole("status", { name: "Number to choose" });
  await expect(shown).toHaveText(/^\d{2}$/);
  const number = Number(await shown.textContent());
  await expect(page.getByText(`Open the link numbered ${number}`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The e-mail holds three numbered links; the one with the page's number is opened on a phone.
  const links = await enchantedLinkPathsFor(adminEmail, requestedAt);
  expect([...links.keys()]).toContain(number);
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await other.newPage();
  await phone.goto(links.get(number) ?? "");
  await expect(phone.getByRole("heading", { name: "Confirm your sign-in" })).toBeVisible();
  await phone.getByRole("button", { name: "Confirm sign-in" }).click();
  await expect(phone.getByRole("heading", { name: "You're signed in on the other tab" })).toBeVisible();
  await expect(phone.getByText("You can close this one.")).toBeVisible();

  // The page that asked signs in without a click; the phone stays signed out.
  await expect(page).toHaveURL(`${baseURL}/dashboard`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await phone.goto("/dashboard");
  await expect(phone.getByLabel("E-mail")).toBeVisible();
  await other.close();
});
