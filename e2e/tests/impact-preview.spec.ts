import { expect, request, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { sandboxURL } from "./support/sandbox";

test.use({ storageState: adminStorageState });

test("the deploy form previews what the policy would have denied before deploying it", async ({ page }) => {
  test.setTimeout(120_000);
  // An engineer works in a region outside the default allow-list.
  const cloud = await request.newContext();
  const done = await cloud.post(`${sandboxURL}/sandbox/try`, {
    data: {
      provider: "aws",
      principal: "user/alice",
      account: "sandbox-alice",
      action: "ec2:RunInstances",
      resource: "*",
      region: "ap-southeast-2",
    },
  });
  expect(done.status()).toBe(200);
  await cloud.dispose();

  await page.goto("/policies?provider=AWS&search=approved%20regions");
  await page.getByRole("link", { name: "Deploy Restrict AWS usage to approved regions" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create policy" })).toBeVisible();

  const preview = page.getByTestId("impact-preview");
  await expect(preview.getByRole("heading", { name: "Impact preview" })).toBeVisible();
  await expect(preview).toContainText("at least one scope");
  // The preview sits before the Deploy button.
  const panelBox = await preview.boundingBox();
  const deployBox = await page.getByRole("button", { name: "Deploy policy" }).boundingBox();
  expect(panelBox && deployBox && panelBox.y < deployBox.y).toBe(true);

  await page
    .getByRole("list", { name: "Scopes" })
    .getByRole("checkbox", { name: /^Sandbox OU/ })
    .check();
  await preview.getByRole("button", { name: "Preview impact" }).click();
  const summary = preview.getByTestId("impact-preview-summary");
  // The organisation trail delivers the engineer's call a moment later: replay until it is read.
  await expect(async () => {
    const replay = preview.getByRole("button", { name: "Replay again" });
    if (await replay.isVisible()) await replay.click();
    await expect(summary).toContainText(/\d+ actions? by \d+ principals? would have been denied/, {
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(preview.getByText("Top accounts")).toBeVisible();
  await expect(preview).toContainText("sandbox-alice");
  await expect(preview).toContainText("ec2:RunInstances");
  await expect(preview.getByText("What the preview could not see")).toBeVisible();

  // Changing the scopes makes the shown result stale until previewed again.
  await page
    .getByRole("list", { name: "Scopes" })
    .getByRole("checkbox", { name: /^Sandbox OU/ })
    .uncheck();
  await expect(preview).toContainText("at least one scope");
});
