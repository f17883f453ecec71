import { expect, type Page, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";

/** Records every Content-Security-Policy violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportViolation(text: string): void }).reportViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return violations;
}

test("the sign-in and waiver pages run under the policy without a violation", async ({ page }) => {
  const violations = await watchViolations(page);
  const signIn = await page.goto("/");
  expect(signIn?.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.getByRole("heading", { name: "Sign in to Palisade" })).toBeVisible();

  const waiverPage = await page.goto("/req?k=ABCDEFG");
  expect(waiverPage?.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(page.getByRole("heading", { level: 1, name: /^Welcome / })).toBeVisible();
  await expect(page.getByLabel("Policy Key")).toHaveValue("ABCDEFG");
  expect(violations).toEqual([]);
});

test.describe("signed in", () => {
  test.use({ storageState: adminStorageState });

  test("the app's pages and dialogs run under the policy without a violation", async ({ page }) => {
    const violations = await watchViolations(page);
    const pages: [path: string, heading: string][] = [
      ["/dashboard", "Dashboard"],
      ["/policies", "Policies"],
      ["/events", "Events"],
      ["/team-members", "Team members"],
      ["/connectors", "Connectors"],
    ];
    for (const [path, heading] of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
    await page.getByRole("button", { name: "Add connector" }).click();
    await expect(page.getByRole("dialog", { name: "Add connector" })).toBeVisible();
    await page.keyboard.press("Escape");
    // An open select adds a style element of its own, which must carry the page's nonce.
    await page.goto("/team-members");
    await page.getByRole("combobox").first().click();
    await expect(page.getByRole("listbox")).toBeVisible();
    await page.keyboard.press("Escape");
    expect(violations).toEqual([]);
  });

  test("an unknown address answers 404 and shows the app's Not Found screen", async ({ page }) => {
    const response = await page.goto("/policies/p-1/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Not Found", { exact: true })).toBeVisible();
  });
});
