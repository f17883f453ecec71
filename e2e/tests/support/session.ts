import { expect, type Page } from "@playwright/test";
import { adminEmail, adminPassword, baseURL } from "./admin";

/** Signs the page's browser context in through the auth API, as the sign-in form would. */
export async function signInAsAdmin(page: Page): Promise<void> {
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: { email: adminEmail, password: adminPassword },
    headers: { Origin: baseURL },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Signs in on the sign-in card with a password: the address first, then the password. */
export async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Fills and submits the sign-in card as the administrator. */
export async function submitSignIn(page: Page, password = adminPassword): Promise<void> {
  await signInWithPassword(page, adminEmail, password);
}
