import { chromium } from "@playwright/test";
const BASE = "http://127.0.0.1:8600";
const r = await fetch(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: BASE }, body: JSON.stringify({ email: "admin@example.com", password: "Correct-horse-battery-9" }) });
const cookie = (r.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
for (let i = 0; i < 3; i++) {
  const context = await browser.newContext();
  await context.addCookies(cookie.split("; ").map((p) => ({ name: p.slice(0, p.indexOf("=")), value: p.slice(p.indexOf("=") + 1), url: BASE })));
  const page = await context.newPage();
  await page.goto(`${BASE}${process.argv[2] ?? "/dashboard"}`, { waitUntil: "networkidle" });
  const out = await page.evaluate<string>(`new Promise((resolve) => { let l = 0, el = ""; new PerformanceObserver((list) => { for (const e of list.getEntries()) { l = Math.max(l, e.startTime); el = e.element ? e.element.tagName + "." + e.element.className.slice(0, 60) + " " + (e.element.textContent || "").slice(0, 40) : ""; } }).observe({ type: "largest-contentful-paint", buffered: true }); setTimeout(() => resolve("LCP " + Math.round(l) + " " + el), 200); })`);
  const timeline = await page.evaluate<string[]>(`[...performance.getEntriesByType("navigation").map((e) => "doc " + Math.round(e.responseEnd) + " dcl " + Math.round(e.domContentLoadedEventEnd)), ...performance.getEntriesByType("resource").map((e) => Math.round(e.startTime) + "-" + Math.round(e.responseEnd) + " " + new URL(e.name).pathname)]`);
  console.log(out);
  if (i === 2 && process.env.V) console.log(timeline.join("\n"));
  await context.close();
}
await browser.close();
