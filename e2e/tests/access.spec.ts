import { expect, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";
import { answerGetCurrentWithPermissions, isGetCurrent } from "./support/tenant-read";

test.use({ storageState: adminStorageState });

const refusals: [code: string, status: number, message: string][] = [
  ["permission_denied", 403, "You are not a member of any tenant"],
  ["failed_precondition", 400, "Your role grants no access"],
];

for (const [code, status, message] of refusals) {
  test(`a caller the server answers ${code} is sent to the blocked-access page`, async ({ page }) => {
    await page.route(isGetCurrent, (route) =>
      route.fulfill({ status, contentType: "application/json", body: JSON.stringify({ code, message }) }),
    );
    await page.goto("/events");
    await expect(page).toHaveURL(`${baseURL}/blocked-access`);
    await expect(
      page.getByRole("heading", { level: 1, name: "You don't have access to this area" }),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in with another account" })).toBeVisible();
  });
}

test("a role without any read permission is sent to the blocked-access page", async ({ page }) => {
  await answerGetCurrentWithPermissions(page, ["PERMISSION_WAIVERS_REQUEST"]);
  // A page the browser renders itself, so that the answer it is given is the one it reads.
  await page.goto("/events");
  await expect(page).toHaveURL(`${baseURL}/blocked-access`);
});

test("a viewer sees the pages but not the actions that change them", async ({ page }) => {
  await answerGetCurrentWithPermissions(page, [
    "PERMISSION_POLICIES_READ",
    "PERMISSION_EVENTS_READ",
    "PERMISSION_RECOMMENDATIONS_READ",
    "PERMISSION_INITIATIVES_READ",
    "PERMISSION_WAIVERS_READ",
    "PERMISSION_WAIVERS_REQUEST",
  ]);
  await page.goto("/policies");
  await expect(page.getByRole("heading", { level: 1, name: "Policies" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Create policy" })).toHaveCount(0);
  await page.goto("/recommendations");
  await expect(page.getByRole("heading", { level: 1, name: "Recommendations" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add manually" })).toHaveCount(0);

  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Policies" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Connectors" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Team members" })).toHaveCount(0);
});

test("the administrator sees the actions", async ({ page }) => {
  await page.goto("/policies");
  await expect(page.getByRole("link", { name: "Create policy" })).toBeVisible();
  await page.goto("/recommendations");
  await expect(page.getByRole("link", { name: "Add manually" })).toBeVisible();
});

test("a page whose code cannot be loaded reloads once, then shows the fallback screen", async ({ page }) => {
  let documentLoads = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "document") documentLoads++;
  });
  await page.route(/\/assets\/team-members-[^/]*\.js$/, (route) => route.abort());
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const before = documentLoads;

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team members" }).click();
  await expect(page.getByRole("heading", { name: "Oops" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("Failed to fetch dynamically imported module");
  expect(documentLoads - before).toBe(1);
});
