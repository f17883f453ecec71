import { expect as baseExpect, test } from "@playwright/test";
import { generate } from "otplib";
import { baseURL } from "./support/admin";
import { signInWithAuthenticator, startAuthenticatorSetup } from "./support/authenticator";
import { newMember } from "./support/members";
import { signInWithPassword } from "./support/session";

// Password hashing and the invitation make each test slow on a busy machine.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

test("a member sets up an authenticator app and signs in with its code", async ({ browser }) => {
  const password = "Authenticator-password-1";
  const email = await newMember("totp", password);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto("/");
  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(`${baseURL}/dashboard`);

  await page.goto("/account");
  const card = page.getByRole("region", { name: "Authenticator app" });
  await expect(card).toContainText("Authenticator app: off");
  const { secret } = await startAuthenticatorSetup(page, password);

  const current = await generate({ secret });
  await card.getByLabel("Code from the app").fill(current === "000000" ? "111111" : "000000");
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(card.getByRole("alert")).toContainText("That code is not right");
  await card.getByLabel("Code from the app").fill(await generate({ secret }));
  await card.getByRole("button", { name: "Turn on" }).click();
  await expect(card.getByRole("status")).toContainText("Authenticator app is on.");

  // The next sign-in asks for the app's code after the password.
  await signInWithAuthenticator(page, email, password, secret);
  await context.close();
});
