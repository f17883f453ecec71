import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { adminApi, callAsAdmin } from "./support/waiver-bundle";

test.use({ storageState: adminStorageState });

/** A MANUAL policy on the AWS organisation root, with a waiver the administrator requested on it. */
async function ownPendingWaiver(): Promise<string> {
  const api = await adminApi();
  try {
    const { roots = [] } = await callAsAdmin<{ roots?: { externalId?: string; connectorId?: string }[] }>(
      api,
      "palisade.connector.v1.ConnectorService/ListHierarchy",
      { provider: "CLOUD_PROVIDER_AWS" },
    );
    const root = roots[0];
    const { bundle } = await callAsAdmin<{ bundle?: { key?: string; entity?: { id?: string } } }>(
      api,
      "palisade.deployment.v1.DeploymentManagerService/CreateBundle",
      {
        name: `Reviewed waivers ${Date.now()}`,
        // A policy no other spec expects uninstalled.
        policySlug: "deny-leave-organization",
        scopes: [
          { provider: "CLOUD_PROVIDER_AWS", externalId: root?.externalId, connectorId: root?.connectorId },
        ],
        mode: "DEPLOYMENT_MODE_ALERT",
        isVisible: true,
        waiverSettings: { approvalMode: "WAIVER_APPROVAL_MODE_MANUAL" },
      },
    );
    await callAsAdmin(api, "palisade.waiver.v1.WaiverService/Create", {
      key: bundle?.key,
      duration: "7200",
      comment: "Creating a default VPC for the migration rehearsal",
      createSource: "WAIVER_CREATE_SOURCE_FORM",
    });
    return bundle?.entity?.id ?? "";
  } finally {
    await api.dispose();
  }
}

test("a reviewer's own request offers no Approve or Reject, says why, and cancelling asks first", async ({
  page,
}) => {
  const policyId = await ownPendingWaiver();
  await page.goto(`/policies/${policyId}?tab=waivers`);
  const row = page.getByTestId("waiver-row");
  await expect(row).toContainText("Awaiting approval");
  // A separate approver is required (the default): the server would refuse the administrator.
  await expect(row).toContainText("You requested this waiver: another approver decides.");
  await expect(row.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Reject" })).toHaveCount(0);

  await row.getByRole("button", { name: "Cancel waiver" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("the request is withdrawn");
  await confirm.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(row).toContainText("Awaiting approval");

  // Cancelled: the row says when, in the viewer's zone, not the end it would have had.
  await row.getByRole("button", { name: "Cancel waiver" }).click();
  const before = new Date();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel waiver" }).click();
  await expect(row).toContainText("Cancelled");
  const ends = row.getByRole("cell").filter({ hasText: "Cancelled" }).last();
  const shown = (await ends.textContent()) ?? "";
  // The minute of the cancel (or the next one), as the page's locale and zone write it, zone named.
  const minutes = await page.evaluate(
    (times) =>
      times.map((t) =>
        new Date(t).toLocaleString(undefined, { hour: "2-digit", minute: "2-digit", timeZoneName: "short" }),
      ),
    [before.getTime(), Date.now()],
  );
  expect(
    minutes.some((m) => shown.includes(m)),
    `${shown} names one of ${minutes.join(", ")}`,
  ).toBe(true);
});
