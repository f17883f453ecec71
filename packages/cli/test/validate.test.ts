import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { filesJsonSchema } from "../src/files/schemas";
import { runCli } from "./run-cli";

// `palisade validate` works offline: each problem names its file, line and field.

const SUBSCRIPTION = "/subscriptions/2b6c9c1e-0000-4000-8000-000000000001";
const OTHER_SUBSCRIPTION = "/subscriptions/2b6c9c1e-0000-4000-8000-000000000002";
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

const bundle = `kind: Bundle
name: Allowed locations
policy: allowed-locations
mode: prevent
scopes:
  - ${SUBSCRIPTION}
parameters:
  listOfAllowedLocations:
    - westeurope
`;

const waiver = (fields: string) => `kind: Waiver
bundle: Allowed locations
${fields}requester:
  name: Alice Engineer
  email: alice@example.com
reason: Moving the legacy app
`;

let dirs: string[] = [];
function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "palisade-validate-"));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("palisade validate", () => {
  it("accepts a valid folder", async () => {
    const dir = folderWith({
      "bundles/locations.yaml": bundle,
      "waivers/legacy.yaml": waiver(
        `scope: ${SUBSCRIPTION}/resourceGroups/rg-legacy\nexpires: ${inHours(24)}\n`,
      ),
    });
    const result = await runCli(["validate", dir]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("2 object(s) valid");
  });

  it("names file, line and field for an unknown policy", async () => {
    const dir = folderWith({
      "bundles/locations.yaml": bundle.replace("policy: allowed-locations", "policy: no-such-policy"),
    });
    const result = await runCli(["validate", dir]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      "bundles/locations.yaml:3: policy: no-such-policy is not a policy of the catalogue",
    );
  });

  it("names file, line and field for a parameter of the wrong type", async () => {
    const dir = folderWith({
      "bundles/locations.yaml": bundle.replace(
        "listOfAllowedLocations:\n    - westeurope",
        "listOfAllowedLocations: westeurope",
      ),
    });
    const result = await runCli(["validate", dir]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^bundles\/locations\.yaml:8: parameters\.listOfAllowedLocations: .*array/m);
  });

  it("requires a waiver's expiry and bounds it by the tenant's maximum", async () => {
    const dir = folderWith({
      "bundles/locations.yaml": bundle,
      "waivers/a-missing.yaml": waiver(`scope: ${SUBSCRIPTION}\n`),
      "waivers/b-too-long.yaml": waiver(`scope: ${SUBSCRIPTION}\nexpires: ${inHours(30)}\n`),
      "settings/tenant.yaml": "kind: TenantSettings\nmax_waiver_duration_hours: 24\n",
    });
    const result = await runCli(["validate", dir]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^waivers\/a-missing\.yaml:1: expires: /m);
    expect(result.err).toContain("waivers/b-too-long.yaml:4: expires: is more than 24 hours from now");
  });

  it("refuses a scope outside the bundle's, or of the wrong cloud", async () => {
    const dir = folderWith({
      "bundles/locations.yaml": bundle.replace(
        `  - ${SUBSCRIPTION}`,
        `  - ${SUBSCRIPTION}\n  - "111122223333"`,
      ),
      "bundles/unquoted.yaml": bundle
        .replace("name: Allowed locations", "name: Unquoted")
        .replace(`  - ${SUBSCRIPTION}`, "  - 012345678901"),
      "waivers/elsewhere.yaml": waiver(`scope: ${OTHER_SUBSCRIPTION}\nexpires: ${inHours(2)}\n`),
    });
    const result = await runCli(["validate", dir]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      "bundles/locations.yaml:7: scopes[1]: 111122223333 is an AWS scope, but allowed-locations is a policy for AZURE.",
    );
    expect(result.err).toContain(
      'bundles/unquoted.yaml:6: scopes[0]: must be text: quote an account id ("012345678901").',
    );
    expect(result.err).toContain(
      `waivers/elsewhere.yaml:3: scope: ${OTHER_SUBSCRIPTION} lies outside the scopes`,
    );
  });

  it("reports YAML and schema errors with their line", async () => {
    const dir = folderWith({
      "bundles/broken.yaml": "kind: Bundle\nname: [unclosed\n",
      "bundles/typo.yaml": `${bundle}mdoe: alert\n`,
    });
    const result = await runCli(["validate", dir]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^bundles\/broken\.yaml:\d+: not valid YAML/m);
    expect(result.err).toMatch(/^bundles\/typo\.yaml:1: .*mdoe/m);
  });
});

describe("the palisade command", () => {
  const bin = join(import.meta.dirname, "..", "bin", "palisade.mjs");
  const palisade = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });

  it("answers --help at every level and exit code 2 with the usage on bad input, without a stack trace", () => {
    for (const args of [
      ["--help"],
      ["export", "--help"],
      ["validate", "-h"],
      ["plan", "--help"],
      ["apply", "--help"],
    ]) {
      const run = palisade(...args);
      expect(run.status, args.join(" ")).toBe(0);
      expect(run.stdout).toContain("Usage: palisade");
    }
    for (const args of [[], ["frobnicate"], ["plan"], ["apply", "a", "b"], ["validate", "--colour", "x"]]) {
      const run = palisade(...args);
      expect(run.status, args.join(" ")).toBe(2);
      expect(run.stderr).toContain("Usage: palisade");
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("tells what to set when the server or key is missing", () => {
    const run = palisade("plan", ".");
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("PALISADE_URL is not set");
  });

  it("ships the JSON Schema generated from the files' schemas", () => {
    const shipped = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "schema", "palisade.schema.json"), "utf8"),
    );
    expect(shipped).toEqual(filesJsonSchema());
  });
});
