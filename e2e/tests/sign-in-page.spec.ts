import { expect, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { submitSignIn } from "./support/session";

const signInWith = (redirect: unknown) => `/?redirect=${encodeURIComponent(JSON.stringify(redirect))}`;

test.describe("a redirect that cannot be used", () => {
  for (const redirect of [
    { path: "https://elsewhere.example" },
    { path: "//elsewhere.example" },
    "garbage",
  ]) {
    test(`${JSON.stringify(redirect)} is dropped: the page works and leads to the dashboard`, async ({
      page,
    }) => {
      await page.goto(signInWith(redirect));
      await expect(page.getByRole("heading", { name: "Oops" })).toHaveCount(0);
      await submitSignIn(page);
      await expect(page).toHaveURL(`${baseURL}/dashboard`);
    });
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a denied engineer finds the waiver page from sign-in", async ({ page }) => {
    await page.goto("/");
    const link = page.getByRole("link", { name: "Request one with your policy key" });
    await expect(link).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await link.click();
    await expect(page).toHaveURL(`${baseURL}/req`);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome Guest" })).toBeVisible();
  });
});
