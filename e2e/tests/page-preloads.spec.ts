import { expect, type Page, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";

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

test("the dashboard uses the reads its head preloads: each is fetched once, as a GET, and answered", async ({
  page,
}) => {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (/preload/i.test(message.text())) warnings.push(message.text());
  });
  const seen = recordReads(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  // Chromium warns of a preload not used within a few seconds of the load event.
  await page.waitForTimeout(3_500);
  for (const path of preloadedReads) expect(seen[path], path).toEqual(["GET 200"]);
  expect(warnings).toEqual([]);
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
