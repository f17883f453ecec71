import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { isGetCurrent } from "./support/tenant-read";

test.describe("signed in", () => {
  test.use({ storageState: adminStorageState });

  test("a failing tenant lookup shows the fallback screen with the server's message", async ({ page }) => {
    await page.route(isGetCurrent, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: "internal", message: "The tenant database is unavailable" }),
      }),
    );
    // A page the browser renders itself, so that the answer it is given is the one it reads.
    await page.goto("/events");
    // Reads are retried twice with backoff (1 s, 2 s) before the screen gives up.
    await expect(page.getByRole("heading", { name: "Oops" })).toBeVisible({ timeout: 15_000 });
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Something went wrong!");
    await expect(alert).toContainText("The tenant database is unavailable");
    await expect(page.getByRole("button", { name: "Refresh page" })).toBeVisible();

    await page.unroute(isGetCurrent);
    await page.getByRole("button", { name: "Refresh page" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  });
});
