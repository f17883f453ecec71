import { expect, type Page } from "@playwright/test";
import { generate } from "otplib";
import { baseURL } from "./admin";
import { signInWithPassword } from "./session";

/**
 * Starts setting up an authenticator app on the page's "Authenticator app" card (the account
 * page's, or the set-up page Require MFA opens): password, QR code, ten backup codes. Answers the
 * card and the key shown, from which the test computes the app's codes.
 */
export async function startAuthenticatorSetup(page: Page, password: string) {
  const card = page.getByRole("region", { name: "Authenticator app" });
  await card.getByLabel("Password").fill(password);
  await card.getByRole("button", { name: "Set up" }).click();
  await expect(card.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await expect(card.getByRole("list", { name: "Backup codes" }).getByRole("listitem")).toHaveCount(10);
  const secret = (await card.getByTestId("authenticator-key").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  return { card, secret };
}

/** Signs in again from a clean browser: the password, then the app's code, then the dashboard. */
export async function signInWithAuthenticator(page: Page, email: string, password: string, secret: string) {
  await page.context().clearCookies();
  await page.goto("/");
  await signInWithPassword(page, email, password);
  const code = page.getByLabel("Authenticator code");
  await expect(code).toBeVisible();
  await code.fill(await generate({ secret }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard`);
}
