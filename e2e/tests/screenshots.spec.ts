import { expect, type Page, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { adminApi, callAsAdmin, waiverBundleWithWaiver } from "./support/waiver-bundle";

/**
 * Screenshots of each main page at a phone's and a desktop's width, into test-results/screenshots/
 * (the run's output, not kept in the repository): taken to be looked at. Each page is shown with
 * its content, not its loading state, and the test fails when the page scrolls sideways.
 */
const dir = "test-results/screenshots";

interface Fixture {
  key: string;
  waiverPolicyId: string;
}

/** The AWS bundle with AUTO waivers, one waiver on it, and the id of its policy page. */
async function fixture(): Promise<Fixture> {
  const { key, policyId } = await waiverBundleWithWaiver(
    "Rotating the account baseline for the quarterly audit, ticket CHG-20481",
  );
  return { key, waiverPolicyId: policyId };
}

async function shoot(page: Page, name: string, width: number) {
  await page.waitForLoadState("networkidle");
  // No skeleton left: what a person reads once the page has loaded.
  await expect(page.locator(".animate-pulse")).toHaveCount(0);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${name} width`,
  ).toBeLessThanOrEqual(width);
  await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
}

let data: Fixture;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  data = await fixture();
});
// The waivers taken for the pictures end with them: later specs expect the action denied again.
test.afterAll(async () => {
  const api = await adminApi();
  try {
    await callAsAdmin(api, "palisade.waiver.v1.WaiverService/Cancel", { policyKey: data.key });
  } finally {
    await api.dispose();
  }
});

for (const width of [390, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test.describe("signed in", () => {
      test.use({ storageState: adminStorageState });
      const pages: [string, () => string, string | RegExp][] = [
        ["dashboard", () => "/dashboard", "Dashboard"],
        ["policies-catalogue", () => "/policies", "Policies"],
        ["deployed-policies", () => "/policies?view=deployed", "Policies"],
        ["policy-waivers", () => `/policies/${data.waiverPolicyId}?tab=waivers`, /.+/],
        ["events", () => "/events", "Events"],
        ["initiatives", () => "/initiatives", "Initiatives"],
        ["recommendations", () => "/recommendations", "Recommendations"],
        ["connectors", () => "/connectors", "Connectors"],
        ["team-members", () => "/team-members", "Team members"],
        ["settings", () => "/settings", /Settings/],
      ];
      for (const [name, path, heading] of pages) {
        test(name, async ({ page }) => {
          await page.goto(path());
          await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
          if (name === "policy-waivers") await expect(page.getByTestId("waiver-row").first()).toBeVisible();
          await shoot(page, name, width);
        });
      }
    });

    test.describe("signed out", () => {
      test("sign-in", async ({ page }) => {
        await page.goto("/");
        await expect(page.getByRole("link", { name: "Request one with your policy key" })).toBeVisible();
        await shoot(page, "sign-in", width);
      });

      test("waiver request with a key", async ({ page }) => {
        await page.goto(`/req?k=${data.key}`);
        await expect(page.getByLabel("Waiver Reason")).toBeVisible();
        await expect(page.getByText("Further Reading")).toBeVisible();
        await shoot(page, "req-with-key", width);
      });
    });

    test.describe("requester signed in", () => {
      test.use({ storageState: adminStorageState });
      test("waiver request success screen", async ({ page }) => {
        await page.goto(`/req?k=${data.key}`);
        await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible();
        await page.getByLabel("Waiver Reason").fill(`Screenshot of the success screen ${Date.now()}`);
        await page.getByRole("button", { name: "Submit" }).click();
        await expect(page.getByRole("heading", { name: "Waiver created successfully!" })).toBeVisible();
        await shoot(page, "req-success", width);
      });
    });
  });
}
