import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { flatten, type HierarchyNodeJson } from "./support/deploy-bundle";
import { adminApi, callAsAdmin } from "./support/waiver-bundle";

// Azure applies a new assignment, and honours a new exemption, minutes after they are written
// (https://learn.microsoft.com/en-us/azure/governance/policy/how-to/get-compliance-data#evaluation-triggers);
// the e2e server's sandbox takes SANDBOX_AZURE_PROPAGATION_SECONDS (playwright.config.ts).

test.use({ storageState: adminStorageState });

test("an Azure guardrail and its waiver show Propagating until Azure enforces them, without a reload", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  let bundleId = "";
  let key = "";
  try {
    let subscription: HierarchyNodeJson | undefined;
    await expect
      .poll(
        async () => {
          const { roots = [] } = await callAsAdmin<{ roots?: HierarchyNodeJson[] }>(
            api,
            "palisade.connector.v1.ConnectorService/ListHierarchy",
            { provider: "CLOUD_PROVIDER_AZURE" },
          );
          subscription = flatten(roots).find((node) => node.name === "sandbox-01");
          return subscription?.externalId;
        },
        { timeout: 60_000, message: "the sandbox Azure tenant is synced" },
      )
      .toBeTruthy();
    const { bundle } = await callAsAdmin<{ bundle?: { key?: string; entity?: { id?: string } } }>(
      api,
      "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
      {
        name: `HTTPS-only storage ${Date.now()}`,
        policySlug: "storage-accounts-https-only",
        scopes: [
          {
            provider: "CLOUD_PROVIDER_AZURE",
            externalId: subscription?.externalId,
            connectorId: subscription?.connectorId,
          },
        ],
        mode: "DEPLOYMENT_MODE_PREVENT",
        isVisible: true,
        waiverSettings: { approvalMode: "WAIVER_APPROVAL_MODE_AUTO" },
      },
    );
    bundleId = bundle?.entity?.id ?? "";
    key = bundle?.key ?? "";
  } finally {
    await api.dispose();
  }

  await page.goto(`/policies/${bundleId}`);
  const status = page.getByTestId("bundle-status");
  await expect(status).toHaveText("Propagating", { timeout: 30_000 });
  await expect(status).toHaveAttribute(
    "title",
    /Azure, which applies new assignments within about \d+ minutes?/,
  );
  await expect(page.getByTestId("deployment-row")).toContainText("Propagating");
  // The page polls: DEPLOYED shows once Azure enforces the assignment.
  await expect(status).toHaveText("Deployed", { timeout: 60_000 });
  await expect(page.getByTestId("deployment-row")).toContainText("Deployed");

  await page.goto(`/req?k=${key}`);
  await expect(page.getByRole("heading", { name: /^Welcome (?!Guest)/ })).toBeVisible();
  await page.getByLabel("Waiver Reason").fill(`Migrating a legacy client (${Date.now()})`);
  await page.getByRole("button", { name: "Submit" }).click();
  const outcome = page.getByTestId("waiver-outcome");
  // Approved at once, but Azure has not applied the exemption yet: no "proceed now".
  await expect(outcome).toHaveAttribute("data-status", "propagating", { timeout: 30_000 });
  await expect(outcome.getByRole("heading")).toHaveText(/Waiver approved: active in about \d+ minutes?/);
  await expect(outcome).toContainText("until then the action is still blocked");
  // The page follows it to active by itself.
  await expect(outcome).toHaveAttribute("data-status", "active", { timeout: 60_000 });
});
