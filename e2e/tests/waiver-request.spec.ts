import { expect, test } from "@playwright/test";

test("the policy card follows the key as it is typed", async ({ page }) => {
  await page.goto("/req");
  const card = page.getByRole("complementary", { name: "Policy information" });
  const key = page.getByLabel("Policy Key");
  await expect(card).toContainText("Enter Policy key...");
  await expect(card).toContainText("Policy information will appear here once we validate the ID");

  await key.fill("ABC");
  await expect(card).toContainText("Keep typing...");
  await expect(card).toContainText("Policy keys are 7 characters long (3/7)");

  await key.fill("ABCDEFGH");
  await expect(card).toContainText("Invalid Policy Key Format");
  await expect(card).toContainText("Policy keys must be exactly 7 characters (currently 8)");

  // No deployment holds this key, so the lookup cannot find it.
  await key.fill("ZZZZZZZ");
  await expect(card).toContainText("We Couldn't Find Your Policy");
  await expect(card).toContainText("Please make sure you inserted a valid policy ID");
});

test("the form validates touched fields and counts characters", async ({ page }) => {
  await page.goto("/req?k=ZZZZZZZ");
  const submit = page.getByRole("button", { name: "Submit" });
  await expect(submit).toBeDisabled();
  await expect(page.getByText("Waiver Duration: 24 hours")).toBeVisible();

  const reason = page.getByLabel("Waiver Reason");
  await expect(reason).toHaveAttribute("rows", "10");
  await reason.focus();
  await reason.blur();
  await expect(page.getByText("Comment is required")).toBeVisible();

  await reason.fill("Restoring the audit bucket for INC-4711");
  await expect(page.getByTestId("comment-counter")).toHaveText("39/220");
  await expect(page.getByText("Comment is required")).toBeHidden();

  await reason.fill("x".repeat(221));
  await expect(page.getByText("Comment must not exceed 220 characters")).toBeVisible();
  await expect(submit).toBeDisabled();

  const key = page.getByLabel("Policy Key");
  await key.fill("ABC");
  await key.blur();
  await expect(page.getByText("Key must be 7 characters long")).toBeVisible();
  await key.fill("");
  await expect(page.getByText("Policy key is required")).toBeVisible();
});

test("the duration slider sets hours between 1 and 72", async ({ page }) => {
  await page.goto("/req");
  const slider = page.getByLabel(/Waiver Duration/);
  await slider.focus();
  await page.keyboard.press("End");
  await expect(page.getByText("Waiver Duration: 72 hours")).toBeVisible();
  await page.keyboard.press("Home");
  await expect(page.getByText("Waiver Duration: 1 hour")).toBeVisible();
});

test("a refused waiver request explains itself and returns to the form", async ({ page }) => {
  await page.goto("/req?k=ZZZZZZZ");
  await page.getByLabel("Waiver Reason").fill("Restoring the audit bucket for INC-4711");
  const submit = page.getByRole("button", { name: "Submit" });
  await expect(submit).toBeEnabled();
  await submit.click();

  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Couldn't Validate Policy Key" })).toBeVisible();
  await expect(dialog).toContainText("Please validate Policy Key input and try again.");
  await dialog.getByRole("button", { name: "Back to Form" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Waiver Reason")).toHaveValue("Restoring the audit bucket for INC-4711");
});

test("on a small screen the policy card comes before the form", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/req");
  const card = await page.getByRole("complementary", { name: "Policy information" }).boundingBox();
  const form = await page.getByLabel("Policy Key").boundingBox();
  expect(card!.y).toBeLessThan(form!.y);
});

test("a known key shows the policy's feedback message and further reading", async ({ page }) => {
  // Deployments come from a connected cloud; the lookups answer as the server does for a deployed policy.
  await page.route("**/palisade.policy.v1.PolicyService/GetBundleByKey", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({
        key: "K7QX2MD",
        policySlug: "deny-leave-organization",
        feedbackMessage:
          "Leaving the organisation is blocked by policy **K7QX2MD**. See the [runbook](https://runbooks.example/leave-org).",
      }),
    }),
  );
  await page.route("**/palisade.policy.v1.PolicyService/GetDefinitionBySlug", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({
        slug: "deny-leave-organization",
        furtherReadingUrls: [
          {
            name: "Removing a member account",
            href: "https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_accounts_remove.html",
          },
        ],
      }),
    }),
  );
  await page.goto("/req?k=K7QX2MD");
  const card = page.getByRole("complementary", { name: "Policy information" });
  await expect(card.getByRole("heading", { name: "deny-leave-organization" })).toBeVisible();
  await expect(card).toContainText("Leaving the organisation is blocked by policy K7QX2MD.");
  await expect(card.getByRole("link", { name: "runbook" })).toHaveAttribute("target", "_blank");
  const reading = card.getByRole("link", { name: "Removing a member account" });
  await expect(reading).toHaveAttribute("target", "_blank");
  await expect(reading).toHaveAttribute("rel", "noopener noreferrer");
});

test("a known key without further reading says so", async ({ page }) => {
  await page.route("**/palisade.policy.v1.PolicyService/GetBundleByKey", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ key: "K7QX2MD", policySlug: "deny-leave-organization" }),
    }),
  );
  await page.route("**/palisade.policy.v1.PolicyService/GetDefinitionBySlug", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ slug: "deny-leave-organization" }),
    }),
  );
  await page.goto("/req?k=K7QX2MD");
  const card = page.getByRole("complementary", { name: "Policy information" });
  await expect(card).toContainText("No feedback message available");
  await expect(card).toContainText("No further reading available");
});
