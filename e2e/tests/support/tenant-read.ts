import type { Page } from "@playwright/test";

/**
 * Matches the app's read of the caller's tenant and role (`GetCurrent`): a Connect GET whose request
 * is in the query, which a glob on the path alone would not match; the dashboard's head preloads it.
 */
export const isGetCurrent = (url: URL) => url.pathname === "/palisade.tenant.v1.TenantService/GetCurrent";

/**
 * Answers GetCurrent as the server does, with the caller's permissions replaced. The request is
 * sent again from the test, without the Sec-Fetch-Site the browser had set (a same-origin GET
 * carries no Origin, and the server accepts it on that header): it is given back as the browser
 * sent it.
 */
export async function answerGetCurrentWithPermissions(page: Page, permissions: string[]) {
  await page.route(isGetCurrent, async (route) => {
    const response = await route.fetch({
      headers: { ...route.request().headers(), "sec-fetch-site": "same-origin" },
    });
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, permissions } });
  });
}
