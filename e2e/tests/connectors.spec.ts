import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";

test.use({ storageState: adminStorageState });

test("adds a sandbox connector, tests it, syncs it and shows its hierarchy", async ({ page }) => {
  await page.goto("/connectors");
  await expect(page.getByRole("heading", { name: "Connectors", level: 1 })).toBeVisible();
  const rows = page.getByTestId("connector-row");
  // The local run connects the sandbox on first start.
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();

  await page.getByRole("button", { name: "Add connector" }).click();
  const dialog = page.getByRole("dialog", { name: "Add connector" });
  await dialog.getByRole("button", { name: "Add sandbox connector" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(before + 1);

  const added = rows.last();
  await added.getByRole("button", { name: "Test" }).click();
  const result = page.getByRole("dialog", { name: "Connection works" });
  await expect(result).toBeVisible();
  await result.getByRole("button", { name: "OK" }).click();

  await added.getByRole("button", { name: "Sync now" }).click();
  await expect(added.getByText("Connected")).toBeVisible({ timeout: 20_000 });
  // The new connector's tree is the last one; the organisation's top levels start open.
  const tree = page.getByRole("list", { name: "Sandbox AWS organisation hierarchy" }).last();
  await expect(tree.getByText("Workloads-Prod", { exact: true })).toBeVisible();
  await tree.getByRole("button", { name: "Expand Workloads-Prod" }).click();
  await expect(tree.getByText("payments-prod", { exact: true })).toBeVisible();
});
