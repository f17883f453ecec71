import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { firstLoadOf, PAGES } from "./first-load";

const dist = fileURLToPath(new URL("./dist", import.meta.url));
const built = existsSync(`${dist}/.vite/manifest.json`);

// `npm test` builds the app before running this; on its own it needs `npm run build` first.
describe.skipIf(!built)("first-load JavaScript of the built app", () => {
  it.each(PAGES)("$path stays within $budgetKb KB gzipped", (page) => {
    const { files, gzipKb } = firstLoadOf(dist, page);
    expect(files.length).toBeGreaterThan(1);
    expect(Math.round(gzipKb * 10) / 10).toBeLessThanOrEqual(page.budgetKb);
  });
});
