import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATALOGUE_DIR } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { afterEach, describe, expect, it } from "vitest";
import { loadCatalogue } from "./load-catalogue";

let copy: string | undefined;
afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
});

/** A copy of the shipped catalogue with one definition file replaced. */
function catalogueWith(path: string, text: string): string {
  copy = mkdtempSync(join(tmpdir(), "palisade-catalogue-"));
  const directory = join(copy, "catalogue");
  cpSync(CATALOGUE_DIR, directory, { recursive: true });
  writeFileSync(join(directory, path), text);
  return directory;
}

describe("loadCatalogue", () => {
  it("loads the shipped catalogue", () => {
    const { catalogue } = loadCatalogue();
    expect(catalogue.definitions.length).toBeGreaterThan(0);
    expect(catalogue.bySlug.get("allowed-locations")?.enforcer).toBe("azure_policy");
  });

  it("fails naming the file and the field of a broken definition", () => {
    const directory = catalogueWith(
      "definitions/aws/deny-leave-organization.yaml",
      "slug: deny-leave-organization\ndisplay_name: Leave\nenforcer: aws_scp\n",
    );
    expect(() => loadCatalogue(directory)).toThrow(
      /^The policy catalogue is invalid: catalogue\/definitions\/aws\/deny-leave-organization\.yaml: description: /,
    );
  });
});
