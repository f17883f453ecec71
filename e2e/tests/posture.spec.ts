import { expect, request, test } from "@playwright/test";
import { adminStorageState, baseURL } from "./support/admin";
import { awsNodeNamed, deployBundle, flatten } from "./support/deploy-bundle";
import { sandboxURL } from "./support/sandbox";
import { callAsAdmin } from "./support/waiver-bundle";

test.use({ storageState: adminStorageState });

const CIS_AWS = "cis-aws-foundations-3.0.0";

test("installs an initiative on an OU and shows each bundle's progress until all are deployed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`/initiatives/${CIS_AWS}`);
  await expect(page.getByRole("progressbar", { name: "Clauses covered by what is deployed" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole("progressbar", { name: "Clauses covered by the catalogue" })).toBeVisible();
  // Other tests may have deployed some of its policies already, on other scopes.
  await expect(page.getByText(/^\d+ of \d+ policies deployed/)).toBeVisible();

  await page.getByRole("button", { name: "Install" }).click();
  const dialog = page.getByRole("dialog", { name: /Install CIS Amazon Web Services/ });
  await dialog.getByRole("checkbox", { name: /^Workloads-Dev\b/ }).check();
  await dialog.getByLabel(/^Alert/).check();
  await dialog.getByRole("button", { name: "Review install" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(
    "Install CIS Amazon Web Services Foundations Benchmark 3.0.0 in ALERT mode?",
  );
  await expect(confirm).toContainText("Workloads-Dev");
  await confirm.getByRole("button", { name: "Install" }).click();

  const progress = page.getByTestId("install-progress");
  // The install checks and stores every bundle before it answers; slow on a loaded machine.
  await expect(progress).toBeVisible({ timeout: 60_000 });
  const rows = progress.getByTestId("install-bundle");
  await expect(rows.first()).toBeVisible();
  const total = await rows.count();
  expect(total).toBeGreaterThan(10);
  await expect(progress).toContainText(`Install finished: all ${total} policies deployed`, {
    timeout: 90_000,
  });
  await expect(rows.filter({ hasText: "Deployed" })).toHaveCount(total);
  await expect(page.getByText(/^(\d+) of \1 policies deployed/)).toBeVisible();
  await expect(page.getByText(new RegExp(`Workloads-Dev \\(${total}\\)`))).toBeVisible();

  // Each bundle opens its policy page, in the initiative's namespace.
  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/policies\/[^/?]+$/);
});

test("lists a deleted policy's events on the archived page, and sends a bare link to the policies", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const api = await request.newContext({ baseURL, storageState: adminStorageState });
  const cloud = await request.newContext();
  let bundleId = "";
  try {
    const ou = await awsNodeNamed(api, "Infrastructure");
    const account = flatten(ou.children ?? []).find((n) => n.type === "SCOPE_TYPE_AWS_ACCOUNT")?.externalId;
    bundleId = (
      await deployBundle(api, {
        name: "Keep flow logs (archived events test)",
        policySlug: "protect-vpc-flow-logs",
        scope: ou,
      })
    ).id;
    const denied = await cloud.post(`${sandboxURL}/sandbox/try`, {
      data: { provider: "aws", principal: "user/bob", account, action: "ec2:DeleteFlowLogs", resource: "*" },
    });
    expect(denied.status()).toBe(403);
    await expect
      .poll(
        async () => {
          await callAsAdmin(api, "palisade.event.v1.PolicyEventStoreService/TriggerFetch", {});
          const { items = [] } = await callAsAdmin<{ items?: unknown[] }>(
            api,
            "palisade.event.v1.PolicyEventStoreService/ListEvents",
            { filter: { policyId: bundleId } },
          );
          return items.length;
        },
        { timeout: 60_000, intervals: [2_000], message: "the denial is recorded as an event" },
      )
      .toBeGreaterThan(0);
    await callAsAdmin(api, "palisade.deployment.v1.DeploymentManagerService/DeleteBundle", { id: bundleId });
  } finally {
    await api.dispose();
    await cloud.dispose();
  }

  // The deleted policy's page says so, shows its own parameters and links to its archived events.
  await page.goto(`/policies/${bundleId}`);
  await expect(page.getByTestId("deleted-policy")).toContainText("This policy was deleted", {
    timeout: 30_000,
  });
  await page.getByRole("tab", { name: "Events" }).click();
  await page.getByRole("link", { name: "Archived prevention events" }).click();
  await expect(page).toHaveURL(new RegExp(`/policies/archived\\?policyId=${bundleId}&eventType=prevention`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Archived prevention events");
  await expect(page.getByText("Keep flow logs (archived events test)").first()).toBeVisible();
  const row = page.getByTestId("event-row").filter({ hasText: "ec2:DeleteFlowLogs" });
  await expect(row.first()).toContainText("Prevented");
  await expect(row.first()).toContainText("bob");

  // Events of the deleted policy link to the archived page from the events list too.
  await page.goto("/events");
  const listed = page.getByTestId("event-row").filter({ hasText: "ec2:DeleteFlowLogs" }).first();
  await listed.getByRole("link", { name: /\(archived\)/ }).click();
  await expect(page).toHaveURL(/\/policies\/archived\?/);

  // Without its parameters the page is not an error: the policies page explains what to do.
  await page.goto("/policies/archived");
  await expect(page).toHaveURL(/\/policies(\?|$)/);
  await expect(page.getByTestId("route-notice")).toContainText("Archived events are opened from a policy");
});
