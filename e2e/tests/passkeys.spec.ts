import { expect as baseExpect, type Page, request, test } from "@playwright/test";
import { adminStorageState, baseURL, port } from "./support/admin";
import { invitationPathFor } from "./support/outbox";
import { signInWithPassword } from "./support/session";
import { adminApi, callAsAdmin } from "./support/waiver-bundle";

// Browsers refuse an IP address as a passkey's site, so passkeys live at localhost on the same port.
const siteURL = `http://localhost:${port}`;
// Accepting the invitation hashes a password (deliberately slow).
test.describe.configure({ timeout: 300_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

/** A viewer of the Default tenant with a password, made through an invitation. */
async function newMember(password: string): Promise<{ email: string; name: string }> {
  const stamp = Date.now();
  const email = `passkey-${stamp}@palisade.test`;
  const name = `Kim Passkey ${stamp}`;
  const admin = await adminApi();
  try {
    await callAsAdmin(admin, "palisade.team.v1.TeamService/InviteMember", { email, role: "ROLE_VIEWER" });
  } finally {
    await admin.dispose();
  }
  const token = (await invitationPathFor(email)).split("/").pop();
  const anonymous = await request.newContext({ baseURL });
  try {
    const accepted = await anonymous.post("/palisade.team.v1.TeamService/AcceptInvitationWithNewAccount", {
      data: { token, name, password },
      headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);
  } finally {
    await anonymous.dispose();
  }
  return { email, name };
}

/** Chromium's virtual authenticator: a platform authenticator holding discoverable credentials. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: /^Account menu for/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: /Sign in to Palisade|Welcome back/ })).toBeVisible();
  // A fresh sign-in page, so nothing of the signed-in one is still settling.
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
}

test("a member adds a passkey, signs in with it, and a deleted or replayed passkey is refused", async ({
  browser,
}) => {
  const password = "Passkey-member-password-1";
  const member = await newMember(password);
  const context = await browser.newContext({ baseURL: siteURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);

  await page.goto("/");
  await signInWithPassword(page, member.email, password);
  await expect(page).toHaveURL(`${siteURL}/dashboard`);

  await page.goto("/account");
  await expect(page.getByRole("heading", { name: "Passkeys", level: 2 })).toBeVisible();
  const card = page;
  await expect(card.getByText("You have no passkeys yet.")).toBeVisible();
  await card.getByLabel("Name of the new passkey").fill("Work laptop");
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByText("Passkey “Work laptop” added.")).toBeVisible();
  const passkeys = card.getByRole("list", { name: "Your passkeys" });
  await expect(passkeys.getByRole("listitem")).toHaveCount(1);
  await expect(passkeys).toContainText("Work laptop");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);

  await passkeys.getByRole("button", { name: "Rename Work laptop" }).click();
  await passkeys.getByLabel("New name for Work laptop").fill("Phone");
  await passkeys.getByRole("button", { name: "Save" }).click();
  await expect(passkeys).toContainText("Phone");
  await expect(passkeys).not.toContainText("Work laptop");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The administrator sees the member's passkey among their sign-in methods.
  const adminContext = await browser.newContext({ baseURL, storageState: adminStorageState });
  try {
    const adminPage = await adminContext.newPage();
    await adminPage.goto("/team-members");
    const row = adminPage
      .getByRole("table", { name: "Members" })
      .getByRole("row")
      .filter({ hasText: member.email });
    await expect(row).toContainText("Password, 1 passkey");
  } finally {
    await adminContext.close();
  }

  // Sign out, then in again with the passkey alone; the answer the browser sent is kept for replay.
  await signOut(page);
  const assertion = page.waitForRequest(
    (r) => r.url().endsWith("/api/auth/passkey/verify-authentication") && r.method() === "POST",
  );
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(`${siteURL}/dashboard`);
  await expect(page.getByRole("button", { name: /^Account menu for/ })).toHaveAccessibleName(
    new RegExp(member.name),
  );
  const replayBody = (await assertion).postData() ?? "";

  // The same assertion again: its challenge was used, so no session comes of it.
  const replay = await context.request.post("/api/auth/passkey/verify-authentication", {
    data: replayBody,
    headers: { "Content-Type": "application/json", Origin: siteURL },
  });
  expect(replay.status()).toBe(400);
  expect(((await replay.json()) as { code?: string }).code).toBe("CHALLENGE_NOT_FOUND");

  await page.goto("/account");
  // The account's sign-in history names the method.
  await expect(page.getByRole("table", { name: "Sign-in history" }).getByRole("row").nth(1)).toContainText(
    "Passkey",
  );
  await passkeys.getByRole("button", { name: "Delete Phone" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete the passkey “Phone”?" });
  await confirm.getByRole("button", { name: "Delete passkey" }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByText("You have no passkeys yet.")).toBeVisible();

  // The device still holds the credential, but Palisade no longer knows it.
  await signOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert")).toContainText("This passkey is not registered with Palisade.");
  await expect(page).toHaveURL(/\/sign-in|\/$/);
  await context.close();
});
