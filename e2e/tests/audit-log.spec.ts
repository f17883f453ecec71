import { readFileSync } from "node:fs";
import { parseAuditExport, verifyAuditChain } from "@palisade/api/audit-chain";
import { expect, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";

test.use({ storageState: adminStorageState });

test("changes made in the walkthrough appear in the Audit log, by name, filterable from the address", async ({
  page,
}) => {
  const stamp = Date.now();
  const invitee = `audited-${stamp}@palisade.test`;
  const keyName = `Audited pipeline ${stamp}`;

  // Two changes, made the way a person makes them.
  await page.goto("/team-members");
  await page.getByLabel("E-mail addresses").fill(invitee);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(
    page.getByRole("list", { name: "Invitation results" }).getByText(`${invitee}: invitation sent`),
  ).toBeVisible();
  await page.getByRole("button", { name: "Create API key" }).click();
  const create = page.getByRole("dialog", { name: "Create API key" });
  await create.getByLabel("Name").fill(keyName);
  await create.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("dialog", { name: `API key “${keyName}” created` })).toBeVisible();
  await page.keyboard.press("Escape");

  await page.goto("/settings/audit-log");
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const records = page.getByRole("table", { name: "Audit records" });
  const invitation = records.getByRole("row").filter({ hasText: `invitation: ${invitee}` });
  await expect(invitation).toContainText("TeamService.InviteMember");
  // The actor by name, the time with its zone.
  await expect(invitation).not.toContainText("Someone");
  await expect(invitation.getByRole("cell").first()).toHaveText(/[A-Z]{2,5}|GMT|UTC/);
  const key = records.getByRole("row").filter({ hasText: `api key: ${keyName}` });
  await expect(key).toContainText("TeamService.CreateApiKey");

  // The JSON Lines export of the whole log carries each record's hashes: the file verifies as a chain.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export JSON Lines" }).click();
  const exported = parseAuditExport(readFileSync((await (await download).path()) as string, "utf8"));
  expect(exported.map((r) => r.targetName)).toContain(invitee);
  expect(verifyAuditChain(exported)).toMatchObject({ ok: true });

  // What changed, on expanding the row; the key's secret is not in it.
  await key.getByRole("button", { name: /Show what changed/ }).click();
  const after = page.getByRole("heading", { name: "After" }).locator("xpath=following-sibling::pre");
  await expect(after).toContainText(keyName);
  await expect(after).not.toContainText("pal_");

  // Filters live in the address: a shared link opens the same view.
  await page.getByLabel("Target type").fill("api_key");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/targetType=api_key/);
  await expect(records.getByRole("row").filter({ hasText: invitee })).toHaveCount(0);
  await page.goto(`/settings/audit-log?action=InviteMember`);
  await expect(records.getByRole("row").filter({ hasText: `invitation: ${invitee}` })).toBeVisible();
  await expect(records.getByRole("row").filter({ hasText: keyName })).toHaveCount(0);

  // At 390 px the rows stack and the details stay reachable.
  await page.setViewportSize({ width: 390, height: 844 });
  const row = records.getByRole("row").filter({ hasText: `invitation: ${invitee}` });
  const details = row.getByRole("button", { name: /Show what changed/ });
  await details.scrollIntoViewIfNeeded();
  await expect(details).toBeInViewport();
  await details.click();
  await expect(page.getByRole("heading", { name: "After" })).toBeVisible();

  // Choosing an actor by name filters to what they did.
  await row.getByRole("link", { name: /Only changes by/ }).click();
  await expect(page).toHaveURL(/actor=/);
  await expect(records.getByRole("row").filter({ hasText: `invitation: ${invitee}` })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
