import { readFileSync } from "node:fs";
import { expect as baseExpect, type Page, request, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";
import { awsNodeNamed, deployBundle, flatten } from "./support/deploy-bundle";
import { sandboxURL } from "./support/sandbox";
import { callAsAdmin } from "./support/waiver-bundle";

test.use({ storageState: adminStorageState });

// Pages render on a machine shared with other work: give each assertion and test room.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 420_000 });

const bundleName = "Billing stays central (events explore test)";
const action = "aws-portal:ModifyBilling";

const seeded = { bundleId: "", key: "", aliceAccount: "", bobAccount: "", ou: "" };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const api = await request.newContext({ baseURL, storageState: adminStorageState });
  const cloud = await request.newContext();
  try {
    const ou = await awsNodeNamed(api, "Workloads-Dev");
    const accounts = flatten(ou.children ?? []);
    seeded.ou = ou.externalId ?? "";
    seeded.aliceAccount = accounts.find((n) => n.name === "payments-dev")?.externalId ?? "";
    seeded.bobAccount = accounts.find((n) => n.name === "storefront-dev")?.externalId ?? "";
    const deployed = await deployBundle(api, {
      name: bundleName,
      policySlug: "protect-billing-settings",
      scope: ou,
      approvalMode: "WAIVER_APPROVAL_MODE_MANUAL",
    });
    seeded.bundleId = deployed.id;
    seeded.key = deployed.key;
    for (const [principal, account] of [
      ["user/alice", seeded.aliceAccount],
      ["user/bob", seeded.bobAccount],
    ]) {
      const denied = await cloud.post(`${sandboxURL}/sandbox/try`, {
        data: { provider: "aws", principal, account, action, resource: "*" },
      });
      expect(denied.status()).toBe(403);
    }
    await expect
      .poll(
        async () => {
          await callAsAdmin(api, "palisade.event.v1.PolicyEventStoreService/TriggerFetch", {});
          const { items = [] } = await callAsAdmin<{ items?: unknown[] }>(
            api,
            "palisade.event.v1.PolicyEventStoreService/ListEvents",
            { filter: { policyId: seeded.bundleId } },
          );
          return items.length;
        },
        { timeout: 60_000, intervals: [1000, 2000], message: "both denials are recorded" },
      )
      .toBe(2);
  } finally {
    await api.dispose();
    await cloud.dispose();
  }
});

const rows = (page: Page) => page.getByTestId("event-row");
const base = () => `/events?view=events&policyId=${seeded.bundleId}`;

test("every filter narrows the list from the address", async ({ page }) => {
  const cases: [string, number][] = [
    ["&type=prevented", 2],
    [`&resourceName=${seeded.aliceAccount.slice(0, 8)}`, 1],
    // A single character is not searched.
    [`&resourceName=${seeded.aliceAccount.slice(0, 1)}`, 2],
    ["&resourceType=AWS%3A%3AOrganizations%3A%3AAccount", 2],
    [`&policyName=${encodeURIComponent(bundleName)}`, 2],
    [`&scope=${seeded.aliceAccount}`, 1],
    [`&scope=${seeded.ou}`, 2],
    [`&user=${encodeURIComponent(`arn:aws:iam::${seeded.bobAccount}:user/bob`)}`, 1],
    ["&provider=azure", 0],
    ["&from=2099-01-01", 0],
  ];
  for (const [query, count] of cases) {
    await page.goto(`${base()}${query}`);
    await expect(page.getByLabel("Event counts")).toBeVisible();
    if (count === 0) await expect(page.getByText("No events match these filters")).toBeVisible();
    else await expect(rows(page)).toHaveCount(count);
  }
  // The counters count what the list shows.
  await page.goto(`${base()}&scope=${seeded.aliceAccount}`);
  await expect(page.getByLabel("Event counts").getByRole("definition").first()).toHaveText("1");
});

test("every filter has a control that writes it to the address", async ({ page }) => {
  await page.goto(base());
  await expect(rows(page)).toHaveCount(2);

  await page.getByRole("button", { name: "Waived", exact: true }).click();
  await expect(page).toHaveURL(/type=waived/);
  await expect(rows(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Waived", exact: true }).click();

  const name = page.getByLabel("Resource name");
  await name.fill(seeded.aliceAccount.slice(0, 1));
  await expect(rows(page)).toHaveCount(2);
  await expect(page).not.toHaveURL(/resourceName=/);
  await name.fill(seeded.aliceAccount.slice(0, 8));
  await expect(page).toHaveURL(/resourceName=/);
  await expect(rows(page)).toHaveCount(1);
  await name.fill("");
  await expect(page).not.toHaveURL(/resourceName=/);
  await expect(rows(page)).toHaveCount(2);

  await page.getByLabel("Resource type").selectOption("AWS::Organizations::Account");
  await expect(page).toHaveURL(/resourceType=/);
  await expect(rows(page)).toHaveCount(2);

  await page.getByLabel("Policy name").selectOption(bundleName);
  await expect(page).toHaveURL(/policyName=/);
  await expect(rows(page)).toHaveCount(2);

  const user = page.getByLabel("User", { exact: true });
  await user.fill("alice");
  await user.press("Enter");
  await expect(page).toHaveURL(/user=/);
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole("button", { name: /^Remove User:/ }).click();
  await expect(rows(page)).toHaveCount(2);

  await page.getByLabel("Scope").selectOption(seeded.bobAccount);
  await expect(page).toHaveURL(/scope=/);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByLabel("Active filters")).toContainText("Scope: storefront-dev");
  await page.getByRole("button", { name: /^Remove Scope:/ }).click();
  await expect(rows(page)).toHaveCount(2);

  await page.getByLabel("Cloud").selectOption("azure");
  await expect(page).toHaveURL(/provider=azure/);
  await expect(page.getByText("No events match these filters")).toBeVisible();
  await page.getByLabel("Cloud").selectOption("aws");
  await expect(rows(page)).toHaveCount(2);

  await page.getByLabel("From", { exact: true }).fill("2099-01-01");
  await expect(page).toHaveURL(/from=2099-01-01/);
  await expect(page.getByText("No events match these filters")).toBeVisible();
  await page.getByLabel("From", { exact: true }).fill("");
  await page.getByLabel("To", { exact: true }).fill("2099-01-01");
  await expect(page).toHaveURL(/to=2099-01-01/);
  await expect(rows(page)).toHaveCount(2);

  // The policy filter by id, chosen by name.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Policy", { exact: true }).selectOption({ label: bundleName });
  await expect(page).toHaveURL(new RegExp(`policyId=${seeded.bundleId}`));
  await expect(rows(page)).toHaveCount(2);

  // One row per resource: each account once, with its count of events.
  await page.getByRole("tab", { name: "By resource" }).click();
  await expect(page).not.toHaveURL(/view=events/);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByTestId("event-total")).toHaveText("2 resources");
});

test("an event's sheet shows the record, the deny message and a waiver link", async ({ page }) => {
  await page.goto(`${base()}&scope=${seeded.aliceAccount}`);
  await rows(page).first().getByRole("button", { name: "Details" }).click();
  const sheet = page.getByRole("dialog", { name: "Event" });
  await expect(sheet).toContainText(action);
  await expect(sheet).toContainText("payments-dev");
  await expect(sheet).toContainText(bundleName);
  await expect(sheet).toContainText("is not authorized to perform");
  await expect(sheet.getByTestId("raw-audit-record")).toContainText('"eventName"');
  await expect(sheet.getByRole("link", { name: "Request a waiver" })).toHaveAttribute(
    "href",
    `/req?k=${seeded.key}`,
  );
  await expect(page).toHaveURL(/eventId=/);
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/eventId=/);
});

test("export downloads a CSV of the rows shown", async ({ page }) => {
  await page.goto(base());
  await expect(rows(page)).toHaveCount(2);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  const lines = readFileSync((await file.path()) as string, "utf8")
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toContain("occurred_at,type");
  expect(lines).toHaveLength(3);
  expect(lines.slice(1).every((line) => line.includes(seeded.key) && line.includes("PREVENTION"))).toBe(true);
  expect(lines.join("\n")).toContain(seeded.aliceAccount);
  expect(lines.join("\n")).toContain(seeded.bobAccount);
});

test("the hierarchy drills down to an account and filters the list by it", async ({ page }) => {
  await page.goto(`/events?view=hierarchy&policyId=${seeded.bundleId}`);
  const scopes = page.getByTestId("hierarchy-scope");
  // The AWS organisation's root holds both denials; Azure's management groups none.
  const root = scopes.filter({ hasText: "Prevented2" });
  await expect(root).toHaveCount(1);
  await root.getByRole("button").first().click();
  await scopes.getByRole("button", { name: "Workloads", exact: true }).click();
  await scopes.getByRole("button", { name: "Workloads-Dev", exact: true }).click();
  const account = scopes.filter({ hasText: "payments-dev" });
  await expect(account).toContainText("Prevented1");
  await account.getByRole("button", { name: "Show events of payments-dev" }).click();
  await expect(page).toHaveURL(new RegExp(`scope=.*${seeded.aliceAccount}`));
  await expect(rows(page)).toHaveCount(1);
});

test("the dashboard, policies and events fit a 390 px screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/dashboard", "/policies", "/policies?view=deployed", base(), "/events"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(390);
  }
});
