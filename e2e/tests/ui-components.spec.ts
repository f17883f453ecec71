import { expect, test } from "@playwright/test";

test.beforeEach(async ({ page }) => {
  await page.goto("/ui-components");
});

test("the text block is clamped, expands and collapses", async ({ page }) => {
  const block = page.getByTestId("text-block-sample");
  const readMore = block.getByRole("button", { name: "Read more..." });
  await expect(readMore).toBeVisible();
  const clamped = await block.boundingBox();

  await readMore.click();
  const showLess = block.getByRole("button", { name: "Show less" });
  await expect(showLess).toBeVisible();
  const expanded = await block.boundingBox();
  expect(expanded!.height).toBeGreaterThan(clamped!.height + 50);

  await showLess.click();
  await expect(block.getByRole("button", { name: "Read more..." })).toBeVisible();
});

test("short text has no toggle", async ({ page }) => {
  const card = page.getByText("A short plain-text block has no toggle.").locator("xpath=ancestor::div[2]");
  await expect(card.getByRole("button")).toHaveCount(0);
});

test("links open in a new tab and unsafe links are blanked", async ({ page }) => {
  const block = page.getByTestId("text-block-sample");
  await block.getByRole("button", { name: "Read more..." }).click();

  const docs = block.getByRole("link", { name: "AWS documentation on leaving an organisation" });
  await expect(docs).toHaveAttribute("href", /^https:\/\/docs\.aws\.amazon\.com\//);
  await expect(docs).toHaveAttribute("target", "_blank");
  await expect(docs).toHaveAttribute("rel", "noopener noreferrer");

  const unsafe = block.locator("a", { hasText: "this one does nothing" });
  await expect(unsafe).toHaveAttribute("href", "");
});

test("the error dialog reports an unexpected error with a single OK button", async ({ page }) => {
  await page.getByRole("button", { name: "Show error dialog" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Unexpected Error" })).toBeVisible();
  await expect(dialog).toContainText("The export could not be written.");
  await expect(dialog.getByRole("button")).toHaveCount(1);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toBeHidden();
});
