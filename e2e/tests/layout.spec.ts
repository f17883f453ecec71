import { expect, type Page, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { adminApi, callAsAdmin, waiverBundleWithWaiver } from "./support/waiver-bundle";

test.use({ storageState: adminStorageState });

const longName =
  "Deny creating default VPCs and default subnets in every production account of the payments platform";

interface Fixture {
  waiverPolicyId: string;
  longPolicyId: string;
  initiativeSlug: string;
}

/** A policy with an active waiver, and one whose name is as long as people write them. */
async function fixture(): Promise<Fixture> {
  const { policyId } = await waiverBundleWithWaiver(
    "Rotating the account baseline for the quarterly audit, ticket CHG-20481, with the platform team",
  );
  const api = await adminApi();
  try {
    const { roots = [] } = await callAsAdmin<{ roots?: { externalId?: string; connectorId?: string }[] }>(
      api,
      "palisade.connector.v1.ConnectorService/ListHierarchy",
      { provider: "CLOUD_PROVIDER_AWS" },
    );
    const root = roots[0];
    const { bundle } = await callAsAdmin<{ bundle?: { entity?: { id?: string } } }>(
      api,
      "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
      {
        name: `${longName} ${Date.now()}`,
        // A policy no other spec expects uninstalled.
        policySlug: "deny-route53-domain-transfer",
        scopes: [
          { provider: "CLOUD_PROVIDER_AWS", externalId: root?.externalId, connectorId: root?.connectorId },
        ],
        mode: "DEPLOYMENT_MODE_ALERT",
        isVisible: true,
      },
    );
    const { items = [] } = await callAsAdmin<{ items?: { slug?: string }[] }>(
      api,
      "palisade.initiative.v1.InitiativeService/ListInitiatives",
      {},
    );
    return {
      waiverPolicyId: policyId,
      longPolicyId: bundle?.entity?.id ?? "",
      initiativeSlug: items[0]?.slug ?? "",
    };
  } finally {
    await api.dispose();
  }
}

/** The page does not scroll sideways, and every control of every table row is on screen. */
async function expectFits(page: Page, width: number) {
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "page width").toBeLessThanOrEqual(
    width,
  );
  const offscreen = await page.evaluate((viewport) => {
    const controls = document.querySelectorAll("tbody tr :is(button, a, select, [role=combobox])");
    return [...controls]
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return box.width > 0 && (box.right > viewport + 1 || box.left < -1);
      })
      .map((control) => control.textContent?.trim() || control.getAttribute("aria-label") || control.tagName);
  }, width);
  expect(offscreen, "row controls off screen").toEqual([]);
}

let data: Fixture;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  data = await fixture();
});

for (const width of [390, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    const pages: [string, () => string, string | RegExp][] = [
      ["dashboard", () => "/dashboard", "Dashboard"],
      ["team members", () => "/team-members", "Team members"],
      ["policy catalogue", () => "/policies", "Policies"],
      ["deployed policies", () => "/policies?view=deployed", "Policies"],
      ["a policy's waivers", () => `/policies/${data.waiverPolicyId}?tab=waivers`, /.+/],
      [
        "archived events",
        () => `/policies/archived?policyId=${data.longPolicyId}&eventType=drift`,
        /Archived/,
      ],
      ["a policy's overview", () => `/policies/${data.longPolicyId}`, /Deny creating default VPCs/],
      [
        "create policy",
        () => "/policies/create?defaultSelectedPolicies=deny-default-vpc-creation",
        "Create policy",
      ],
      ["events", () => "/events", "Events"],
      ["connectors", () => "/connectors", "Connectors"],
      ["initiatives", () => "/initiatives", "Initiatives"],
      ["an initiative", () => `/initiatives/${data.initiativeSlug}`, /.+/],
      ["recommendations", () => "/recommendations", "Recommendations"],
      ["archived recommendations", () => "/recommendations/archive", "Archived recommendations"],
      ["add recommendation", () => "/recommendations/addnewmanually", "Add recommendation"],
      ["settings", () => "/settings", /Settings/],
      ["notifications", () => "/settings/notifications", /Notifications/],
      ["audit log", () => "/settings/audit-log", "Audit log"],
      ["account", () => "/account", /.+/],
      ["waiver request", () => "/req", /^Welcome/],
    ];
    for (const [name, path, heading] of pages) {
      test(`${name} fits the screen with its row actions reachable`, async ({ page }) => {
        await page.goto(path());
        // This test measures the layout, not the load: a page that waits on a busy embedded
        // database in a long run is given longer to arrive than the default ten seconds.
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible({ timeout: 20_000 });
        if (name === "a policy's waivers") await expect(page.getByTestId("waiver-row").first()).toBeVisible();
        if (name === "team members") await expect(page.getByRole("table", { name: "Members" })).toBeVisible();
        await expectFits(page, width);
        // Kept apart from test-results/, which the next run empties: looked at, not only taken.
        await page.screenshot({
          path: `playwright-report/layout/${name.replaceAll(" ", "-").replaceAll("'", "")}-${width}.png`,
          fullPage: true,
        });
      });
    }
  });
}

test.describe("at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the team members table shows every column, MFA and actions included", async ({ page }) => {
    await page.goto("/team-members");
    const table = page.getByRole("table", { name: "Members" });
    await expect(table).toBeVisible();
    const clipped = await table.evaluate((element) => {
      const frame = element.parentElement as HTMLElement;
      return frame.scrollWidth - frame.clientWidth;
    });
    expect(clipped, "columns hidden past the card's edge").toBeLessThanOrEqual(1);
    await expect(table.getByRole("columnheader", { name: "MFA" })).toBeInViewport();
    await expect(table.getByRole("button", { name: /^Remove / }).first()).toBeInViewport();
  });
});
