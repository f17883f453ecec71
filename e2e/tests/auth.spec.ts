import { expect, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { signInAsAdmin, submitSignIn } from "./support/session";

test("the admin signs in and lands on the dashboard", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Sign in to Palisade" })).toBeVisible();
  await submitSignIn(page);
  await expect(page).toHaveURL(`${baseURL}/dashboard`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  await page.goto("/");
  await submitSignIn(page, "not-the-password");
  await expect(page.getByRole("alert")).toContainText("Invalid email or password");
  await expect(page).toHaveURL(`${baseURL}/`);
});

test("a signed-out visitor is sent to sign-in and back to where they were going", async ({ page }) => {
  await page.goto("/events?type=alert");
  await expect(page.getByRole("heading", { name: /Sign in to Palisade|Welcome back/ })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  expect(new URL(page.url()).searchParams.get("redirect")).toContain("/events?type=alert");

  await submitSignIn(page);
  await expect(page).toHaveURL(`${baseURL}/events?type=alert`);
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Alert" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Prevented" })).toHaveAttribute("aria-pressed", "false");
});

test("the user menu shows the initials of the signed-in user and signs out", async ({ page }) => {
  await signInAsAdmin(page);
  const renamed = await page.request.post("/api/auth/update-user", {
    data: { name: "Ada Lovelace" },
    headers: { Origin: baseURL },
  });
  expect(renamed.ok(), await renamed.text()).toBe(true);

  await page.goto("/dashboard");
  const menu = page.getByRole("button", { name: "Account menu for Ada Lovelace" });
  await expect(menu).toBeVisible();
  await expect(menu.getByTestId("user-initials")).toHaveText("AL");

  await menu.click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Palisade" })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);

  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Sign in to Palisade" })).toBeVisible();
});

test("the sign-in page remembers who signed in last", async ({ page }) => {
  await page.goto("/");
  await submitSignIn(page);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /^Welcome back, / })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("admin@palisade.test");
});
