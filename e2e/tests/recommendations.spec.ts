import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";

test.use({ storageState: adminStorageState });

const TITLE = "Keep Amazon Macie running in the sandbox";

test("a recommendation is listed, installed through the prefilled create form, and shown installed", async ({
  page,
}) => {
  test.setTimeout(300_000);

  // The computed recommendations for the connected sandbox clouds.
  await page.goto("/recommendations");
  await page.getByRole("button", { name: "Recompute" }).click();
  await expect(page.getByRole("button", { name: "Recompute" })).toBeEnabled();

  // A computed one shows what its policies would have denied on the scopes it suggests.
  await page.getByRole("list", { name: "Recommendations" }).getByRole("button").first().click();
  await expect(page.getByRole("dialog").getByTestId("impact-preview-summary").first()).toBeVisible({
    timeout: 90_000,
  });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  // A recommendation added by hand, with its rationale in Markdown.
  await page.getByRole("link", { name: "Add manually" }).click();
  await page.getByLabel("Title").fill(TITLE);
  await page
    .getByLabel("Description")
    .fill("Macie finds **sensitive data** in S3; disabling it hides leaks.\n\n- Seen in the sandbox");
  await page.getByLabel("Cloud").click();
  await page.getByRole("option", { name: "AWS" }).click();
  await page.getByLabel("Policy definitions").fill("protect-macie");
  await page.getByRole("button", { name: "Add recommendation" }).click();

  // Added: listed, and opened with its rationale rendered.
  await expect(page).toHaveURL(/\/recommendations\?recommendationId=/);
  const detail = page.getByRole("dialog");
  await expect(detail.getByRole("heading", { name: TITLE })).toBeVisible();
  await expect(detail.locator("strong", { hasText: "sensitive data" })).toBeVisible();
  await expect(detail.getByRole("listitem").filter({ hasText: "Seen in the sandbox" })).toBeVisible();
  await expect(detail).toContainText("Added manually");
  await page.keyboard.press("Escape");
  await expect(
    page.getByRole("list", { name: "Recommendations" }).getByRole("button", { name: TITLE }),
  ).toBeVisible();

  // Install opens the create form prefilled from the recommendation.
  await page.getByRole("list", { name: "Recommendations" }).getByRole("button", { name: TITLE }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Install" }).click();
  await expect(page).toHaveURL(/\/policies\/create\?/, { timeout: 60_000 });
  expect(new URL(page.url()).searchParams.get("recommendationTitle")).toBe(TITLE);
  expect(new URL(page.url()).searchParams.get("provider")).toBe("AWS");
  await expect(page.getByRole("heading", { level: 1, name: "Create policy" })).toBeVisible();
  await expect(page.getByLabel("Starting point")).toContainText(TITLE);
  await expect(page.getByLabel("Policy definition")).toHaveValue("protect-macie");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(
    "Prevent disabling or suspending Amazon Macie",
  );

  // Deploy it; the recommendation is then installed and moves to the archive.
  await page
    .getByRole("list", { name: "Scopes" })
    .getByRole("checkbox", { name: /^Sandbox OU/ })
    .check();
  await page.getByRole("button", { name: "Deploy policy" }).click();
  await expect(page).toHaveURL(/\/policies\/[^/?]+$/, { timeout: 60_000 });
  await expect(
    page.getByRole("heading", { level: 1, name: "Prevent disabling or suspending Amazon Macie" }),
  ).toBeVisible();

  await page.goto("/recommendations");
  await expect(page.getByRole("list", { name: "Recommendations" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: TITLE })).toHaveCount(0);
  await page.getByRole("link", { name: "Archived" }).click();
  const archived = page.getByRole("list", { name: "Archived recommendations" }).getByRole("listitem").filter({
    hasText: TITLE,
  });
  await expect(archived.getByText("Installed")).toBeVisible({ timeout: 30_000 });

  // Restoring asks first.
  await archived.getByRole("button", { name: TITLE }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("goes back to the open recommendations");
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();
});
