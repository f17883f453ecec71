import { test as setup } from "@playwright/test";
import { adminStorageState } from "./support/admin";
import { signInAsAdmin } from "./support/session";

// The server limits sign-ins per minute, so the signed-in tests share one session.
setup("sign in as the administrator", async ({ page }) => {
  await signInAsAdmin(page);
  await page.context().storageState({ path: adminStorageState });
});
