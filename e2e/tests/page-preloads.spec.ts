import { expect, type Page, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { adminApi } from "./support/admin-api";
import { awsNodeNamed, deployBundle } from "./support/deploy-bundle";
import { dashboardBeforeItsCode, pageConsole } from "./support/held-page-code";

test.use({ storageState: adminStorageState });

/** The reads the dashboard's head preloads, as Connect GETs with their (empty) request in the address. */
const preloadedReads = [
  "/palisade.tenant.v1.TenantService/GetCurrent",
  "/palisade.deployment.v1.DeploymentManagerService/SummaryBundle",
];

/** Every request of the page to one of the preloaded reads, as method and status. */
function recordReads(page: Page) {
  const seen: Record<string, string[]> = Object.fromEntries(preloadedReads.map((path) => [path, []]));
  page.on("response", (response) => {
    const url = new URL(response.url());
    seen[url.pathname]?.push(`${response.request().method()} ${response.status()}`);
  });
  return seen;
}

test.beforeAll(async () => {
  // A deployed policy: the dashboard shows its figures, and the skeletons of those read after its first paint.
  const api = await adminApi();
  try {
    await deployBundle(api, {
      name: "Serial console, on the dashboard",
      policySlug: "deny-ec2-serial-console-access",
      scope: await awsNodeNamed(api, "Workloads"),
    });
  } finally {
    await api.dispose();
  }
});

test("the dashboard arrives rendered with its first reads: readable before any script runs", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: adminStorageState, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: /Deployed policies/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Compliance trend" })).toBeVisible();
    // The signed-in shell with its navigation, as the visitor's role shows it.
    await expect(page.getByRole("link", { name: "Policies" }).first()).toBeVisible();
  } finally {
    await context.close();
  }
});

test("the dashboard the server sent is taken over as it is: its first reads are not asked again, no error, and it navigates", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    // An error, a preload unused, or the page rendered anew rather than taken over (main.tsx says so).
    if (message.type() === "error" || /preload|rendered anew/i.test(message.text()))
      errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const seen = recordReads(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  // The reads below the first screen start once the page's code has taken it over.
  await expect(page.getByText("Waiver analytics")).toBeVisible();
  // Chromium warns of a preload not used within a few seconds of the load event.
  await page.waitForTimeout(3_500);
  // The server read them for the page: the browser had them in the page.
  for (const path of preloadedReads) expect(seen[path], path).toEqual([]);
  // Taken over without a mismatch React would report (and then render the page anew).
  expect(errors).toEqual([]);
  await page.getByRole("link", { name: "Policies" }).first().click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(page.getByRole("heading", { name: "Policies", level: 1 })).toBeVisible();
});

test("a menu button pressed before the page's code has arrived opens its menu once the code has taken the page over", async ({
  page,
}) => {
  const log = pageConsole(page);
  const release = await dashboardBeforeItsCode(page);
  await page.getByRole("button", { name: /^Account menu/ }).click();
  await expect(page.getByRole("menu")).toHaveCount(0);
  release();
  await expect(page.getByRole("menuitem", { name: "Sign out" }), `${log}`).toBeVisible();
  // Pressed once, opened once: the menu stays open.
  await page.waitForTimeout(500);
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the navigation button pressed before the page's code has arrived opens the navigation once the code has taken the page over", async ({
    page,
  }) => {
    const log = pageConsole(page);
    const release = await dashboardBeforeItsCode(page);
    // The server's page, before any of the app's code runs: the button is there, the menu is not.
    await page.getByRole("button", { name: "Open navigation" }).click();
    await expect(page.getByRole("dialog", { name: "Navigation" })).toHaveCount(0);
    release();
    const menu = page.getByRole("dialog", { name: "Navigation" });
    await expect(menu.getByRole("link", { name: "Events" }), `${log}`).toBeVisible();
    // Pressed once, opened once: the menu stays open.
    await page.waitForTimeout(500);
    await expect(menu.getByRole("link", { name: "Events" })).toBeVisible();
    await menu.getByRole("link", { name: "Events" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  });
});

test("a read the page sends as a same-origin GET is answered on the browser's Sec-Fetch-Site, without Origin", async ({
  page,
}) => {
  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === preloadedReads[0]);
  const status = await page.evaluate(async (path) => {
    const response = await fetch(`${path}?connect=v1&encoding=json&message=%7B%7D`, {
      credentials: "same-origin",
    });
    return response.status;
  }, preloadedReads[0]);
  // A same-origin GET carries no Origin, which the cookie's other calls must send.
  const headers = await (await sent).allHeaders();
  expect(headers.origin).toBeUndefined();
  expect(headers["sec-fetch-site"]).toBe("same-origin");
  expect(status).toBe(200);
});
