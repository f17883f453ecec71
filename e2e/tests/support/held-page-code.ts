import type { Page } from "@playwright/test";

/**
 * Holds a server-rendered page's code on its way, as on a slow connection or a slow machine: the
 * entry (`/assets/index-*.js` for the app's pages, `/assets/req-*.js` for the waiver page) is sent
 * only once released. Until then the page is the server's HTML, with none of its code running.
 */
export async function holdPageCode(page: Page, entry: "index" | "req"): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(new RegExp(`/assets/${entry}-[\\w-]+\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * What the page writes to its console and the errors it throws, as lines: the page says there why
 * it did not take itself over as rendered (a test's failure message shows them).
 */
export function pageConsole(page: Page): { toString(): string } {
  const lines: string[] = [];
  page.on("console", (message) => lines.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => lines.push(`uncaught: ${error.message}`));
  return { toString: () => `The page's console:\n${lines.join("\n") || "(nothing)"}` };
}

/** Opens the dashboard as the server renders it, its code held (see holdPageCode); released by the function returned. */
export async function dashboardBeforeItsCode(page: Page): Promise<() => void> {
  const release = await holdPageCode(page, "index");
  await page.goto("/dashboard", { waitUntil: "domcontentloaded" });
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  return release;
}
