import { expect as baseExpect, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { verificationPathFor } from "./support/outbox";
import { signInWithPassword } from "./support/session";

// Hashing the password twice (sign-up, sign-in) is deliberately slow.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("a newcomer signs up, confirms the address from the e-mail, signs in and sees their account outside any tenant", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const email = `newcomer-${Date.now()}@example.com`;
  const password = "Newcomer-password-1";

  await page.goto("/");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(`${baseURL}/sign-up`);
  await expect(page.getByRole("heading", { level: 1, name: "Create your Palisade account" })).toBeVisible();

  // The spec's validation messages, before anything is sent.
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("E-mail is required")).toBeVisible();
  await page.getByLabel("Name").fill("Nico Newcomer");
  await page.getByLabel("Work e-mail").fill("nico@example");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Password again").fill("different");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText('"nico@example" is not a valid email')).toBeVisible();
  await expect(page.getByText("Password must be at least 10 characters long")).toBeVisible();
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await page.getByLabel("Password again").fill(password);
  const since = Date.now();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Check your inbox")).toBeVisible();
  await expect(page.getByText(`We have e-mailed ${email} a link to confirm the address`)).toBeVisible();

  // Until the address is confirmed, the password does not sign in.
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await signInWithPassword(page, email, password);
  await expect(page.getByText("Verify your e-mail address before signing in.")).toBeVisible();

  // The link from the outbox confirms the address and lands on the page that says so.
  await page.goto(await verificationPathFor(email, since));
  await expect(page).toHaveURL(`${baseURL}/email-confirmed`);
  await expect(
    page.getByRole("heading", { level: 1, name: "Your e-mail address is confirmed" }),
  ).toBeVisible();
  await expect(page.getByText(`You are signed in as ${email}.`)).toBeVisible();

  // Sign out, then sign in with the password as on any later day.
  await page.request.post("/api/auth/sign-out", { headers: { Origin: baseURL } });
  await page.goto("/");
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(`${baseURL}/blocked-access`);
  await page.getByRole("link", { name: "Your account" }).click();

  // The account page works without a tenant, and says what to ask for.
  await expect(page).toHaveURL(`${baseURL}/account`);
  await expect(page.getByText("You are not a member of any tenant yet")).toBeVisible();
  await expect(page.getByText("Ask an administrator of your organisation to invite you")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Nico Newcomer");
  await expect(page.getByRole("list", { name: "Active sessions" })).toContainText("This device");
  const history = page.getByRole("table", { name: "Sign-in history" });
  await expect(history).toContainText("Address confirmation link");
  await expect(history).toContainText("Refused");
  // The notice is the page's only alert: the sessions and the history loaded.
  await expect(page.getByRole("alert")).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await context.close();
});

test("without sign-up the sign-in page offers no account creation", async ({ page }) => {
  await page.route("**/palisade.account.v1.AccountService/GetSignUpOptions", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({ signUpAllowed: false, minPasswordLength: 10, maxPasswordLength: 128 }),
    }),
  );
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveCount(0);
  await page.goto("/sign-up");
  await expect(page.getByText("Sign-up is turned off")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create account" })).toHaveCount(0);
});

test("a confirmation link that no longer works says how to get a new one", async ({ page }) => {
  await page.goto("/api/auth/verify-email?token=forged&callbackURL=%2Femail-confirmed");
  await expect(page).toHaveURL(/\/email-confirmed\?error=INVALID_TOKEN/);
  await expect(
    page.getByRole("heading", { level: 1, name: "This confirmation link no longer works" }),
  ).toBeVisible();
  await expect(page.getByText("to be sent a new link")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});
