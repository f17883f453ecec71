import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATALOGUE_DIR } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { afterEach, describe, expect, it } from "vitest";
import { loadCatalogue } from "./load-catalogue";

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A copy of the shipped catalogue, and an empty cache directory beside it. */
function copyOfCatalogue(): { directory: string; cacheDir: string } {
  scratch = mkdtempSync(join(tmpdir(), "palisade-catalogue-"));
  const directory = join(scratch, "catalogue");
  cpSync(CATALOGUE_DIR, directory, { recursive: true });
  return { directory, cacheDir: join(scratch, "cache") };
}

const LEAVE = "definitions/aws/deny-leave-organization.yaml";

describe("loadCatalogue", () => {
  it("loads the shipped catalogue", () => {
    const { catalogue, cached } = loadCatalogue();
    expect(cached).toBe(false);
    expect(catalogue.definitions.length).toBeGreaterThan(0);
    expect(catalogue.bySlug.get("allowed-locations")?.enforcer).toBe("azure_policy");
  });

  it("fails naming the file and the field of a broken definition", () => {
    const { directory } = copyOfCatalogue();
    writeFileSync(
      join(directory, LEAVE),
      "slug: deny-leave-organization\ndisplay_name: Leave\nenforcer: aws_scp\n",
    );
    expect(() => loadCatalogue({ directory })).toThrow(
      /^The policy catalogue is invalid: catalogue\/definitions\/aws\/deny-leave-organization\.yaml: description: /,
    );
  });

  it("reuses the validated catalogue while no file changes, and parses again when one does", () => {
    const { directory, cacheDir } = copyOfCatalogue();
    const first = loadCatalogue({ directory, cacheDir });
    const second = loadCatalogue({ directory, cacheDir });
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(second.catalogue).toEqual(first.catalogue);

    const path = join(directory, LEAVE);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(/^display_name: .*$/m, "display_name: Stay in the organization"),
    );
    const edited = loadCatalogue({ directory, cacheDir });
    expect(edited.cached).toBe(false);
    expect(edited.catalogue.bySlug.get("deny-leave-organization")?.display_name).toBe(
      "Stay in the organization",
    );
    // Only the latest result is kept.
    expect(readdirSync(cacheDir)).toHaveLength(1);

    writeFileSync(path, "slug: deny-leave-organization\n");
    expect(() => loadCatalogue({ directory, cacheDir })).toThrow(/deny-leave-organization\.yaml/);
  });

  it("parses again when the cached result cannot be read", () => {
    const { directory, cacheDir } = copyOfCatalogue();
    loadCatalogue({ directory, cacheDir });
    const [name] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, name ?? "missing"), "{ not json");
    const reloaded = loadCatalogue({ directory, cacheDir });
    expect(reloaded.cached).toBe(false);
    expect(reloaded.catalogue.bySlug.has("deny-leave-organization")).toBe(true);
  });
});
