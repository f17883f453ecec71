import { expect, type Page, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";

type Check = (page: Page) => Promise<void>;

const signedInRoutes: [path: string, heading: string | RegExp, check?: Check][] = [
  ["/dashboard", "Dashboard"],
  ["/connectors", "Connectors"],
  ["/team-members", "Team members"],
  [
    "/events?type=prevented&resourceType=AWS::S3::Bucket&policyId=p-9",
    "Events",
    async (page) => {
      await expect(page.getByRole("button", { name: "Prevented" })).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByText("Resource type: AWS::S3::Bucket")).toBeVisible();
      await expect(page.getByText("Policy: this policy")).toBeVisible();
    },
  ],
  ["/recommendations", "Recommendations"],
  ["/recommendations/archive", "Archived recommendations"],
  ["/recommendations/addnewmanually", "Add recommendation"],
  ["/policies", "Policies"],
  [
    "/policies/create?provider=AWS&recommendationTitle=Block%20public%20buckets&defaultSelectedPolicies=deny-public-s3",
    "Create policy",
    async (page) => {
      await expect(page.getByText("Block public buckets")).toBeVisible();
      await expect(page.getByText("deny-public-s3")).toBeVisible();
    },
  ],
  ["/policies/archived?policyId=p-1&eventType=drift", "Archived drift events"],
  [
    "/policies/p-1?tab=waivers",
    // An unknown policy is not titled by its id.
    "Policy not found",
    async (page) => {
      await expect(page.getByRole("tab", { name: "Waivers" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByText("No waivers for this policy")).toBeVisible();
    },
  ],
  ["/initiatives", "Initiatives"],
  [
    "/initiatives/x",
    "Initiative x",
    async (page) => {
      await expect(page.getByRole("tab", { name: "Policies" })).toHaveAttribute("aria-selected", "true");
    },
  ],
  [
    "/initiatives/x?tab=covered&clause=1.4",
    "Initiative x",
    async (page) => {
      await expect(page.getByRole("tab", { name: "Covered" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByText("Clause: 1.4")).toBeVisible();
    },
  ],
];

const publicRoutes: [path: string, heading: string | RegExp, check?: Check][] = [
  [
    "/req?k=ABCDEFGHIJ",
    /^Welcome /,
    async (page) => {
      await expect(page.getByLabel("Policy Key")).toHaveValue("ABCDEFG");
    },
  ],
  ["/blocked-access", "You don't have access to this area"],
  ["/ui-components", "Interface components"],
  ["/ui-components/scroll-indicator", "Scroll indicator"],
];

test.describe("signed in", () => {
  test.use({ storageState: adminStorageState });

  for (const [path, heading, check] of [...signedInRoutes, ...publicRoutes]) {
    test(`${path} shows its page`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await check?.(page);
    });
  }

  test("the sign-in page sends a signed-in user to the dashboard", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(`${baseURL}/dashboard`);
  });

  test("the sidebar leads to every area and marks the current one", async ({ page }) => {
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [label, heading] of [
      ["Policies", "Policies"],
      ["Initiatives", "Initiatives"],
      ["Recommendations", "Recommendations"],
      ["Events", "Events"],
      ["Connectors", "Connectors"],
      ["Team members", "Team members"],
      ["Dashboard", "Dashboard"],
    ]) {
      await nav.getByRole("link", { name: label }).click();
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
    }
  });

  test("an unknown address inside the app shows Not Found", async ({ page }) => {
    await page.goto("/policies/p-1/no-such-page");
    await expect(page.getByText("Not Found", { exact: true })).toBeVisible();
  });
});

test.describe("signed out", () => {
  for (const [path, heading, check] of publicRoutes) {
    test(`${path} is public`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await check?.(page);
    });
  }

  test("the waiver page greets a visitor as Guest", async ({ page }) => {
    await page.goto("/req");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome Guest" })).toBeVisible();
  });

  test("an unknown route shows Not Found", async ({ page }) => {
    await page.goto("/this-page-does-not-exist");
    await expect(page.getByText("Not Found", { exact: true })).toBeVisible();
  });

  test("the scroll indicator follows the scroll position", async ({ page }) => {
    await page.goto("/ui-components/scroll-indicator");
    const bar = page.getByRole("progressbar", { name: "Scrolled" });
    await expect(bar).toHaveAttribute("aria-valuenow", "0");
    await page.getByRole("region", { name: "Scrollable content" }).evaluate((area) => {
      area.scrollTop = area.scrollHeight;
    });
    await expect(bar).toHaveAttribute("aria-valuenow", "100");
  });
});

test.describe("on a phone", () => {
  test.use({ storageState: adminStorageState, viewport: { width: 390, height: 844 } });

  test("the navigation folds into a menu", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("button", { name: "Open navigation" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  });
});
