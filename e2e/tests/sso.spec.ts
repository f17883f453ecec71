import { expect as baseExpect, test } from "@playwright/test";
import { startOidcTestProvider } from "../../apps/server/test/support/oidc-test-provider";
import { baseURL } from "./support/admin";
import { oidcIssuer, oidcPort } from "./support/identity-provider";
import { submitSignIn } from "./support/session";
import { enterNewTenant, returnToDefaultTenant } from "./support/tenants";

// A real OpenID Provider and several page loads on a machine that may be busy.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const client = { clientId: "palisade-e2e", clientSecret: "e2e-client-secret-0123456789" };

test("an administrator registers an OpenID Connect provider and a person of the domain signs in with it", async ({
  browser,
}) => {
  const idp = await startOidcTestProvider(oidcPort);
  try {
    const domain = `sso-${Date.now()}.test`;
    const adminContext = await browser.newContext({ baseURL });
    const admin = await adminContext.newPage();
    await admin.goto("/");
    await submitSignIn(admin);
    await expect(admin).toHaveURL(`${baseURL}/dashboard`);
    const name = `Federated ${Date.now()}`;
    const tenantId = await enterNewTenant(admin, name);
    const redirectUrl = `${baseURL}/api/auth/sso/callback/tenant-${tenantId}`;
    idp.addClient({ ...client, redirectUris: [redirectUrl] });

    // The tenant administrator registers the provider on the settings page.
    await admin.goto("/settings");
    await expect(admin.getByLabel("Tenant name")).toHaveValue(name);
    await admin.getByLabel("Issuer URL").fill(oidcIssuer);
    await admin.getByLabel("Client id").fill(client.clientId);
    await admin.getByLabel("Client secret").fill(client.clientSecret);
    await admin.getByLabel("E-mail domains").fill(domain);
    await admin.getByRole("button", { name: "Save single sign-on" }).click();
    await expect(admin.getByText(redirectUrl)).toBeVisible();
    const domainItem = admin.getByRole("listitem").filter({ hasText: domain });
    await expect(domainItem).toContainText("Not verified");
    // As instance administrator, the same person verifies the domain.
    await domainItem.getByRole("button", { name: "Verify as instance administrator" }).click();
    await expect(domainItem).toContainText("Verified");
    await expect(domainItem).not.toContainText("Not verified");
    await returnToDefaultTenant(admin);
    await adminContext.close();

    // Someone of the domain signs in from the sign-in page through the provider.
    const email = `dana@${domain}`;
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Continue with SSO" }).click();
    await expect(page).toHaveURL((url) => url.origin === oidcIssuer);
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(page).toHaveURL(`${baseURL}/dashboard`);
    await expect(page.getByRole("button", { name: "Switch tenant" })).toContainText(name);

    // The account's sign-in history names the method.
    await page.goto("/account");
    const history = page.getByRole("table", { name: "Sign-in history" });
    await expect(history).toContainText("Single sign-on (OpenID Connect)");
    await context.close();
  } finally {
    await idp.stop();
  }
});
