import { expect as baseExpect, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { signInAsAdmin, submitSignIn } from "./support/session";

// The signed-in area's first load can be slow on a busy machine.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

test("the deploy form keeps what was entered when the session ends and the user signs in again", async ({
  browser,
}) => {
  // A session of its own: ending it leaves the other tests' admin session alone.
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsAdmin(page);
  const path = "/policies/create?defaultSelectedPolicies=deny-default-vpc-creation&provider=AWS";
  await page.goto(path);
  await expect(page.getByLabel("Policy definition")).toHaveValue("deny-default-vpc-creation");
  const scope = page.getByRole("list", { name: "Scopes" }).getByRole("checkbox", { name: /^Security OU/ });
  await scope.check();
  await page.getByLabel("Name", { exact: true }).fill("Kept across the sign-in");
  await page.getByLabel("Namespace").fill("drafts");
  await page.getByRole("radio", { name: /^Prevent/ }).check();
  await page.getByRole("radio", { name: /^Manual/ }).check();

  // The session ends (signed out elsewhere); the next call finds out.
  await page.request.post("/api/auth/sign-out", { headers: { Origin: baseURL } });
  await page.getByRole("button", { name: "Deploy policy" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Deploy and enforce" }).click();
  const ended = page.getByRole("alertdialog", { name: "Your session has ended" });
  await expect(ended).toBeVisible();
  await ended.getByRole("button", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/\?redirect=/);
  await submitSignIn(page);

  await expect(page).toHaveURL(/\/policies\/create\?defaultSelectedPolicies=/);
  await expect(
    page.getByRole("status").filter({ hasText: "What you entered before signing in again" }),
  ).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Kept across the sign-in");
  await expect(page.getByLabel("Namespace")).toHaveValue("drafts");
  await expect(page.getByRole("radio", { name: /^Prevent/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /^Manual/ })).toBeChecked();
  await expect(
    page.getByRole("list", { name: "Scopes" }).getByRole("checkbox", { name: /^Security OU/ }),
  ).toBeChecked();

  // The draft is handed back once: opening the form again starts it over.
  await page.reload();
  await expect(page.getByLabel("Policy definition")).toHaveValue("deny-default-vpc-creation");
  await expect(page.getByLabel("Namespace")).toHaveValue("");
  await context.close();
});
