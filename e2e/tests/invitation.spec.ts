import { expect, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { invitationPathFor, verificationPathFor } from "./support/outbox";
import { signInWithPassword } from "./support/session";
import { adminApi, callAsAdmin } from "./support/waiver-bundle";

const inviteMember = "palisade.team.v1.TeamService/InviteMember";

async function invite(email: string, role: string) {
  const api = await adminApi();
  try {
    await callAsAdmin(api, inviteMember, { email, role });
  } finally {
    await api.dispose();
  }
  return invitationPathFor(email);
}

test("an invitee opens the e-mailed link, sets a password and lands in the tenant", async ({ browser }) => {
  const email = `invitee-${Date.now()}@palisade.test`;
  const link = await invite(email, "ROLE_EDITOR");

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Join Default on Palisade" })).toBeVisible();
  await expect(page.getByText("Editor", { exact: true })).toBeVisible();
  await expect(page.getByText("Expires")).toBeVisible();
  // The time with its zone, in the invitee's own time zone.
  await expect(page.locator("dt:text-is('Expires') + dd")).toHaveText(/\d{2}:\d{2}.*(UTC|GMT)/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByLabel("Your name").fill("Dana Dev");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm password").fill("short");
  await page.getByRole("button", { name: "Join Default" }).click();
  await expect(page.getByText("Password must be at least 10 characters long")).toBeVisible();

  await page.getByLabel("Password", { exact: true }).fill("Dana-password-1");
  await page.getByLabel("Confirm password").fill("Dana-password-1");
  await page.getByRole("button", { name: "Join Default" }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  const current = await page.request.post("/palisade.tenant.v1.TenantService/GetCurrent", {
    data: {},
    headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
  });
  expect(current.ok(), await current.text()).toBe(true);
  expect(await current.json()).toMatchObject({
    tenant: { name: "Default" },
    role: "ROLE_EDITOR",
    user: { email, name: "Dana Dev" },
  });

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This invitation has already been used" })).toBeVisible();
  await context.close();
});

test("an invitee with an account signs in from the link and accepts", async ({ browser }) => {
  // Signing up, confirming the address and being invited: three e-mails and password hashes.
  test.slow();
  const email = `member-${Date.now()}@palisade.test`;
  const password = "Member-password-1";
  const context = await browser.newContext();
  const page = await context.newPage();
  const since = Date.now();
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { email, password, name: "Erin Existing" },
    headers: { Origin: baseURL },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  // A password account signs in once its address is confirmed.
  await page.goto(await verificationPathFor(email, since));
  await page.request.post("/api/auth/sign-out", { headers: { Origin: baseURL } });
  await context.clearCookies();

  const link = await invite(email, "ROLE_VIEWER");
  await page.goto(link);
  await page.getByRole("button", { name: "Sign in to accept" }).click();
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(`${baseURL}${link}`);
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard`);
  await context.close();
});

test("a forged link shows a clear page, not an error", async ({ page }) => {
  await page.goto(`/invite/${"A".repeat(43)}`);
  await expect(page.getByRole("heading", { name: "This invitation link is not valid" })).toBeVisible();
  await expect(page.getByText("Something went wrong!")).toHaveCount(0);
});
