import { type BrowserContext, expect as baseExpect, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { newMember } from "./support/members";
import { resetPasswordPathFor } from "./support/outbox";
import { signInWithPassword } from "./support/session";

// Each test hashes several passwords (deliberately slow) and makes an account through an invitation.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const signIn = signInWithPassword;

async function signedInContext(
  browser: import("@playwright/test").Browser,
  email: string,
  password: string,
): Promise<BrowserContext> {
  const context = await browser.newContext();
  const response = await context.request.post("/api/auth/sign-in/email", {
    data: { email, password },
    headers: { Origin: baseURL },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return context;
}

test("a member changes their password on the account page", async ({ browser }) => {
  const password = "First-password-1";
  const email = await newMember("changer", password);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/");
  await signIn(page, email, password);
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  await page.getByRole("button", { name: /^Account menu for/ }).click();
  await page.getByRole("menuitem", { name: "Account" }).click();
  await expect(page).toHaveURL(`${baseURL}/account`);
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Active sessions" })).toContainText("This device");
  await expect(page.getByRole("table", { name: "Sign-in history" })).toContainText("Signed in");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("Second-password-2");
  await page.getByLabel("New password again").fill("Second-password-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toContainText("The current password is not right.");

  await page.getByLabel("Current password").fill(password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toContainText("Password changed.");

  await page.getByRole("button", { name: /^Account menu for/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await signIn(page, email, password);
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await page.getByLabel("Password").fill("Second-password-2");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard`);
  await context.close();
});

test("sign out everywhere ends the session of another browser", async ({ browser }) => {
  const password = "Everywhere-password-1";
  const email = await newMember("everywhere", password);
  const laptop = await signedInContext(browser, email, password);
  const phone = await signedInContext(browser, email, password);
  const phonePage = await phone.newPage();
  await phonePage.goto("/account");
  // Accepting the invitation signed in too: three sessions.
  await expect(phonePage.getByRole("list", { name: "Active sessions" }).getByRole("listitem")).toHaveCount(3);

  const page = await laptop.newPage();
  await page.goto("/account");
  const sessions = page.getByRole("list", { name: "Active sessions" }).getByRole("listitem");
  await expect(sessions).toHaveCount(3);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Every device signed in to your account is signed out");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();

  // The other browser finds out on its next call, and comes back to where it was after signing in.
  await phonePage
    .getByRole("button", { name: /^Sign out .*\(/ })
    .first()
    .click();
  const ended = phonePage.getByRole("alertdialog");
  await expect(ended.getByRole("heading", { name: "Your session has ended" })).toBeVisible();
  await ended.getByRole("button", { name: "Sign in again" }).click();
  await signIn(phonePage, email, password);
  await expect(phonePage).toHaveURL(`${baseURL}/account`);
  await expect(phonePage.getByRole("list", { name: "Active sessions" })).toContainText("This device");
  await laptop.close();
  await phone.close();
});

test("a forgotten password is reset from the e-mailed link, once", async ({ page }) => {
  const email = await newMember("forgetful", "Forgotten-password-1");
  await page.goto("/");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByRole("button", { name: "E-mail me a reset link" }).click();
  await expect(page.getByText('"not-an-address" is not a valid email')).toBeVisible();

  const since = Date.now();
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "E-mail me a reset link" }).click();
  await expect(page.getByText(`If an account uses ${email}, we have e-mailed it a link`)).toBeVisible();

  const link = await resetPasswordPathFor(email, since);
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("Remembered-password-2");
  await page.getByLabel("New password again").fill("Remembered-password-2");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("heading", { name: "Your password is changed" })).toBeVisible();
  await page.getByRole("link", { name: "Sign in" }).click();
  await signIn(page, email, "Remembered-password-2");
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  // The link works once.
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("Third-password-33");
  await page.getByLabel("New password again").fill("Third-password-33");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("heading", { name: "This reset link no longer works" })).toBeVisible();
  await expect(page.getByText("Something went wrong!")).toHaveCount(0);
});
