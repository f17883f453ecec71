import { expect, type Page } from "@playwright/test";
import { baseURL } from "./admin";
import { callAsAdmin } from "./waiver-bundle";

/** Makes the tenant the active one of the page's session (what the tenant switcher does). */
async function setActiveTenant(page: Page, tenantId: string): Promise<void> {
  const response = await page.request.post("/api/auth/organization/set-active", {
    data: { organizationId: tenantId },
    headers: { Origin: baseURL },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * A new tenant made by the signed-in instance administrator of the page, who becomes its
 * administrator and works in it from then on: a test's own tenant leaves the others' alone.
 */
export async function enterNewTenant(page: Page, name: string): Promise<string> {
  const { tenant } = await callAsAdmin<{ tenant: { id: string } }>(
    page.request,
    "palisade.tenant.v1.TenantService/CreateTenant",
    { name },
  );
  await setActiveTenant(page, tenant.id);
  return tenant.id;
}

/** Back in the Default tenant, where the other tests expect the administrator to start signing in. */
export async function returnToDefaultTenant(page: Page): Promise<void> {
  const response = await page.request.get("/api/auth/organization/list");
  const tenants = (await response.json()) as { id: string; slug: string }[];
  const defaultTenant = tenants.find((t) => t.slug === "default");
  expect(defaultTenant, "the administrator belongs to the Default tenant").toBeDefined();
  await setActiveTenant(page, defaultTenant?.id ?? "");
}
