import { expect as baseExpect, test } from "@playwright/test";
import { generate } from "otplib";
import { baseURL } from "./support/admin";
import { signInWithAuthenticator, startAuthenticatorSetup } from "./support/authenticator";
import { newMember } from "./support/members";
import { signInWithPassword, submitSignIn } from "./support/session";
import { enterNewTenant, returnToDefaultTenant } from "./support/tenants";

// Password hashing and the invitation make the test slow on a busy machine.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

test("a tenant requiring MFA has a member set up an authenticator app at their next sign-in", async ({
  browser,
}) => {
  const password = "Require-mfa-password-1";
  // The administrator, in a tenant of this test's own so no other test is asked for MFA.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await admin.goto("/");
  await submitSignIn(admin);
  await expect(admin).toHaveURL(`${baseURL}/dashboard`);
  const name = `Strict ${Date.now()}`;
  await enterNewTenant(admin, name);
  const email = await newMember("mfa-required", password, admin.request);

  // Turning it on asks first, with how many members have no second factor yet.
  await admin.goto("/settings");
  await expect(admin.getByLabel("Tenant name")).toHaveValue(name);
  const card = admin.getByRole("region", { name: "Two-factor authentication" });
  // The administrator and the new member (unless the administrator registered a passkey before).
  const withoutMfa = /(2 members have|1 member has) neither an authenticator app nor a passkey yet\./;
  await expect(card).toContainText(withoutMfa);
  await card.getByRole("switch", { name: /Require MFA/ }).click();
  const dialog = admin.getByRole("alertdialog", { name: "Require MFA for every member?" });
  await expect(dialog).toContainText(withoutMfa);
  await dialog.getByRole("button", { name: "Require MFA" }).click();
  // The administrator has no app either: their own set-up page comes next.
  await expect(admin).toHaveURL(`${baseURL}/two-factor-setup`);
  await returnToDefaultTenant(admin);
  await adminContext.close();

  // The member signs in with the password and lands on the set-up page.
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/");
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(`${baseURL}/two-factor-setup`);
  await expect(page.getByText("Your tenant requires two-factor authentication")).toBeVisible();
  // The tenant's pages stay closed until then.
  await page.goto("/events");
  await expect(page).toHaveURL(`${baseURL}/two-factor-setup`);

  const { card: setup, secret } = await startAuthenticatorSetup(page, password);
  await setup.getByLabel("Code from the app").fill(await generate({ secret }));
  await setup.getByRole("button", { name: "Turn on" }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  // The next sign-in asks for the app's code after the password.
  await signInWithAuthenticator(page, email, password, secret);
  await context.close();
});
