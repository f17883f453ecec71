import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";

test.use({ storageState: adminStorageState });

test("lists initiatives with their coverage and opens one by clause", async ({ page }) => {
  await page.goto("/initiatives");
  const cards = page.getByTestId("initiative-card");
  await expect(cards.first()).toBeVisible();
  await expect(
    cards.first().getByRole("progressbar", { name: "Clauses covered by the catalogue" }),
  ).toBeVisible();
  await expect(cards.first()).toContainText(/\d+ of \d+ clauses covered by the catalogue \(\d+%\)/);
  await expect(cards.first()).toContainText(/\d+ of \d+ clauses covered by what is deployed \(\d+%\)/);

  const name = (await cards.first().getByRole("heading").textContent()) ?? "";
  // The framework's title is printed once on its card, not again beneath it.
  for (const card of await cards.all()) {
    const title = (await card.getByRole("heading").textContent()) ?? "";
    expect((await card.textContent())?.split(title).length).toBe(2);
  }
  await cards.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/initiatives\/[^/?]+$/);
  await expect(page.getByRole("tab", { name: "Policies" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await expect(page.getByTestId("initiative-policy-row").first()).toBeVisible();

  await page.getByRole("tab", { name: "Covered" }).click();
  await expect(page).toHaveURL(/tab=covered/);
  const clause = page
    .getByTestId("clause-row")
    .filter({ has: page.getByRole("button") })
    .first();
  const clauseId = (await clause.locator("td").first().textContent()) ?? "";
  await clause.getByRole("button").filter({ hasNotText: "Install" }).click();
  await expect(page.getByRole("tab", { name: "Policies" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText(`Clause: ${clauseId}`)).toBeVisible();
  for (const clauses of await page
    .getByTestId("initiative-policy-row")
    .locator("td:nth-child(3)")
    .allTextContents()) {
    expect(clauses).toContain(clauseId);
  }

  await page.getByRole("tab", { name: "Description" }).click();
  await expect(page).toHaveURL(/tab=description/);
});
