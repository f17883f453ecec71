import { expect, type Page, test } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { answerGetCurrentWithPermissions } from "./support/tenant-read";

test.use({ storageState: adminStorageState });

const catalogueRows = (page: Page) =>
  page.getByRole("table", { name: "Policy catalogue" }).getByTestId("catalogue-row");

test.describe("catalogue", () => {
  test("lists the catalogue and narrows it with filters kept in the address", async ({ page }) => {
    const listRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/palisade.policydefinition.v1.PolicyDefinitionService/List")) {
        listRequests.push(request.postData() ?? "");
      }
    });
    await page.goto("/policies");
    await expect(page.getByRole("tab", { name: "Catalogue" })).toHaveAttribute("aria-selected", "true");
    await expect(catalogueRows(page).first()).toBeVisible();

    await page.getByLabel("Provider").selectOption("AWS");
    await expect(page).toHaveURL(/provider=AWS/);
    const column = (n: number) => async () => [
      ...new Set(await catalogueRows(page).locator(`td:nth-child(${n})`).allTextContents()),
    ];
    await expect.poll(column(2)).toEqual(["AWS"]);

    await page.getByLabel("Category").selectOption("identity");
    await expect(page).toHaveURL(/category=identity/);
    await expect.poll(column(3)).toEqual(["Identity"]);
    await expect.poll(column(2)).toEqual(["AWS"]);
    await page.getByLabel("Category").selectOption("");

    // One character is not worth a search; two are, once typing pauses.
    const search = page.getByLabel("Search");
    await search.fill("v");
    await page.waitForTimeout(600);
    expect(new URL(page.url()).searchParams.get("search")).toBe("v");
    expect(listRequests.some((body) => body.includes('"search"'))).toBe(false);
    await search.fill("default vpc");
    await expect(page).toHaveURL(/search=default(\+|%20)vpc/);
    await expect(catalogueRows(page)).toHaveCount(1);
    await expect(catalogueRows(page).first()).toContainText("deny-default-vpc-creation");
    await expect(catalogueRows(page).first()).toContainText("Not installed");

    // The address alone restores the filtered list.
    await page.reload();
    await expect(page.getByLabel("Search")).toHaveValue("default vpc");
    await expect(page.getByLabel("Provider")).toHaveValue("AWS");
    await expect(catalogueRows(page)).toHaveCount(1);
  });

  test("pages through the catalogue by number", async ({ page }) => {
    await page.goto("/policies");
    await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();
    const first = await catalogueRows(page).first().textContent();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();
    await expect(catalogueRows(page).first()).not.toHaveText(first ?? "");
  });

  test("hides the deploy actions from a user who may not deploy", async ({ page }) => {
    await answerGetCurrentWithPermissions(page, ["PERMISSION_POLICIES_READ"]);
    await page.goto("/policies");
    await expect(catalogueRows(page).first()).toBeVisible();
    await expect(page.getByRole("link", { name: /^Deploy / })).toHaveCount(0);
  });
});

test("deploys a catalogue AWS policy in PREVENT to an OU and follows it to DEPLOYED", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/policies?provider=AWS&search=default%20vpc");
  await page.getByRole("link", { name: "Deploy Deny creating default VPCs and default subnets" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Create policy" })).toBeVisible();
  await expect(page.getByLabel("Policy definition")).toHaveValue("deny-default-vpc-creation");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(
    "Deny creating default VPCs and default subnets",
  );
  await expect(page.getByText("This policy has no parameters.")).toBeVisible();

  // Nothing chosen yet: the form says what is missing beside the field.
  await page.getByRole("button", { name: "Deploy policy" }).click();
  await expect(page.getByText("Choose at least one scope.")).toBeVisible();

  // The approval mode starts at the tenant's default (AUTO unless changed).
  await expect(page.getByRole("radio", { name: /^Automatic/ })).toBeChecked();
  await page.getByLabel("Name", { exact: true }).fill("No default VPCs in the sandbox OU");
  await page.getByRole("radio", { name: /^Prevent/ }).check();
  const scopes = page.getByRole("list", { name: "Scopes" });
  // Only the policy's cloud is offered.
  await expect(scopes.getByText("Management group")).toHaveCount(0);
  await scopes.getByRole("checkbox", { name: /^Sandbox OU/ }).check();
  await page.getByRole("button", { name: "Deploy policy" }).click();
  // Straight to PREVENT: asked first, naming that enforcement starts.
  const enforce = page.getByRole("alertdialog", { name: /in PREVENT mode\?/ });
  await expect(enforce).toContainText("Enforcement starts");
  await enforce.getByRole("button", { name: "Deploy and enforce" }).click();

  await expect(page).toHaveURL(/\/policies\/[^/?]+$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "No default VPCs in the sandbox OU" }),
  ).toBeVisible();
  const card = page.getByTestId("bundle-card").filter({ hasText: "No default VPCs in the sandbox OU" });
  await expect(card.getByText("Prevent", { exact: true })).toBeVisible();
  await expect(card.getByTestId("bundle-status")).toHaveText("Deployed", { timeout: 90_000 });
  await expect(card.getByTestId("deployment-row")).toContainText("Sandbox");
  await expect(card.getByTestId("deployment-row")).toContainText("Deployed");

  // Switching the mode asks first and says what will happen; Cancel keeps the mode.
  await card.getByRole("button", { name: "Switch to alert" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Switch No default VPCs in the sandbox OU to ALERT?");
  await expect(confirm).toContainText("in 1 scope.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByText("Prevent", { exact: true })).toBeVisible();

  // The catalogue now reports the policy as enforced, and the deployed list shows it.
  await page.goto("/policies?provider=AWS&search=default%20vpc");
  await expect(catalogueRows(page).first()).toContainText("Prevent");
  await page.getByRole("tab", { name: "Deployed" }).click();
  await expect(page).toHaveURL(/view=deployed/);
  const row = page.getByTestId("bundle-row").filter({ hasText: "No default VPCs in the sandbox OU" });
  await expect(row).toContainText("Deployed");
  await expect(row).toContainText("Sandbox");
});

test("answers the server's field errors beside the parameter fields", async ({ page }) => {
  await page.route("**/palisade.deployment.v1.DeploymentManagerService/CreateBundle", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        code: "invalid_argument",
        message: "Invalid parameters: parameters.allowed_regions: eu-mars-1 is not an allowed value",
      }),
    }),
  );
  await page.goto("/policies/create?defaultSelectedPolicies=deny-regions-outside-allowlist&provider=AWS");
  await expect(page.getByLabel("Policy definition")).toHaveValue("deny-regions-outside-allowlist");
  await page
    .getByRole("list", { name: "Scopes" })
    .getByRole("checkbox", { name: /^Security OU/ })
    .check();
  await page.getByRole("button", { name: "Deploy policy" }).click();
  await expect(page.getByText("eu-mars-1 is not an allowed value")).toBeVisible();
  await expect(page).toHaveURL(/\/policies\/create/);
});
