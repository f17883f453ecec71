import { expect, test } from "@playwright/test";
import { adminEmail, baseURL } from "./support/admin";
import { signInCodeFor } from "./support/outbox";

test.use({ viewport: { width: 390, height: 844 } });

test("signs in with an e-mailed code and returns to the page the user was going to", async ({ page }) => {
  await page.goto("/events?type=alert");
  await expect(page.getByRole("heading", { name: /Sign in to Palisade|Welcome back/ })).toBeVisible();
  await page.getByLabel("E-mail").fill(adminEmail);
  await page.getByRole("button", { name: "Continue" }).click();
  const requestedAt = Date.now();
  await page.getByRole("button", { name: "E-mail me a code" }).click();

  await expect(page.getByRole("status")).toContainText(`If ${adminEmail} has a Palisade account`);
  const code = page.getByLabel("Code");
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await expect(page.getByRole("button", { name: /Resend code in \d+ s/ })).toBeDisabled();

  const received = await signInCodeFor(adminEmail, requestedAt);
  expect(received).toMatch(/^\d{6}$/);

  await code.fill(received === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");

  await code.fill(received);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${baseURL}/events?type=alert`);
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  // Nothing on the page is wider than a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Next time, the code is offered first; nothing is sent until asked for.
  await page.context().clearCookies();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /^Welcome back, / })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(adminEmail);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("We e-mail you a one-time code")).toBeVisible();
  const others = page.getByRole("region", { name: "Other ways to sign in" });
  await expect(others.getByRole("button", { name: "Sign in with a password" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveCount(0);
});

test("offers a new code after 30 seconds", async ({ page }) => {
  await page.clock.install();
  await page.goto("/");
  await page.getByLabel("E-mail").fill(adminEmail);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "E-mail me a code" }).click();
  const resend = page.getByRole("button", { name: /Resend code/ });
  await expect(resend).toBeDisabled();
  await page.clock.runFor(31_000);
  await expect(resend).toHaveText("Resend code");
  await expect(resend).toBeEnabled();
});
