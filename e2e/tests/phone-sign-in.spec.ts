import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect as baseExpect, request, test } from "@playwright/test";
import { baseURL } from "./support/admin";
import { invitationPathFor } from "./support/outbox";
import { signInWithPassword } from "./support/session";
import { adminApi, callAsAdmin } from "./support/waiver-bundle";

// Accepting the invitation hashes a password (deliberately slow).
test.describe.configure({ timeout: 300_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

interface PhoneMessage {
  channel: string;
  to: string;
  text: string;
  code: string;
}

/** Without MESSAGE_WEBHOOK_URL each phone message is a .message.json file in DATA_DIR/outbox. */
function phoneMessagesTo(to: string): PhoneMessage[] {
  const dir = join(process.env.PALISADE_E2E_DATA_DIR ?? "", "outbox");
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".message.json"));
  } catch {
    return [];
  }
  return files
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => a.at - b.at)
    .map(({ name }) => JSON.parse(readFileSync(join(dir, name), "utf8")) as PhoneMessage)
    .filter((message) => message.to === to);
}

async function nextCode(to: string, before: number): Promise<PhoneMessage> {
  await expect.poll(() => phoneMessagesTo(to).length, { timeout: 20_000 }).toBeGreaterThan(before);
  return phoneMessagesTo(to).at(-1) as PhoneMessage;
}

async function newMember(password: string): Promise<string> {
  const email = `phone-${Date.now()}@palisade.test`;
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
      data: { token, name: "Robin Phone", password },
      headers: { "Content-Type": "application/json", "Connect-Protocol-Version": "1", Origin: baseURL },
    });
    expect(accepted.ok(), await accepted.text()).toBe(true);
  } finally {
    await anonymous.dispose();
  }
  return email;
}

test("a member confirms a phone number by a voice code, then signs in by a WhatsApp code", async ({
  browser,
}) => {
  const password = "Phone-member-password-1";
  const email = await newMember(password);
  const phone = `+447${String(Date.now()).slice(-9)}`;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/");
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  await page.goto("/account");
  await expect(page.getByText("No phone number yet.")).toBeVisible();
  await page.getByLabel("Phone number", { exact: true }).fill("07700 900123");
  await expect(page.getByText('"07700 900123" is not a valid phone number')).toBeVisible();
  await page.getByLabel("Phone number", { exact: true }).fill(phone);
  await page.getByLabel("Send the code by").selectOption("voice");
  await page.getByRole("button", { name: "Send a code" }).click();
  const call = await nextCode(phone, 0);
  expect(call.channel).toBe("voice");
  await page.getByLabel(`Code sent to ${phone}`).fill(call.code);
  await page.getByRole("button", { name: "Confirm the number" }).click();
  await expect(page.getByText(`Confirmed number: ${phone}`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole("button", { name: /^Account menu for/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: /Sign in to Palisade|Welcome back/ })).toBeVisible();
  // A fresh sign-in page, so nothing of the signed-in one is still settling.
  await page.goto("/");
  await page.getByRole("button", { name: "Send a code to my phone" }).click();
  await page.getByLabel("Phone number", { exact: true }).fill(phone);
  await page.getByLabel("Send the code by").selectOption("whatsapp");
  await page.getByRole("button", { name: "Send the code" }).click();
  await expect(page.getByRole("status")).toContainText(`If ${phone} belongs to a Palisade account`);
  const message = await nextCode(phone, 1);
  expect(message.channel).toBe("whatsapp");

  await page.getByLabel("Code", { exact: true }).fill(message.code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Sign in with the code" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");
  await page.getByLabel("Code", { exact: true }).fill(message.code);
  await page.getByRole("button", { name: "Sign in with the code" }).click();
  await expect(page).toHaveURL(`${baseURL}/dashboard`);
  await expect(page.getByRole("button", { name: /^Account menu for/ })).toHaveAccessibleName(/Robin Phone/);
  await context.close();
});
