import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { awsDefinition, azureDefinition, bundle, KEY, NOW } from "../../test/bundles";
import { compileScp } from "./aws/compile-scp";
import { compileAzureBundle } from "./azure/compile-azure";
import type { ActiveWaiver } from "./compile-input";

// Reviewed-by-eye provider documents. After an intended change, regenerate with
// `UPDATE_GOLDEN=1 npx vitest run packages/policy-engine/src/compilers/golden.test.ts` and review the diff.
const GOLDEN_DIR = new URL("./__golden__/", import.meta.url);
const SUB = "/subscriptions/6f0a8a3c-2b1e-4c43-9d4b-2a7d1c9e5b11";
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
const waiver = (id: string, n: number, what: Partial<ActiveWaiver>): ActiveWaiver => ({
  id,
  key: KEY,
  expiresAt: hours(n),
  ...what,
});

function scp(input: Parameters<typeof compileScp>[0]) {
  const { content, ...rest } = compileScp(input);
  return { ...rest, characters: content.length, document: JSON.parse(content) };
}

const bundles: [string, () => unknown][] = [
  [
    "aws-require-ec2-imdsv2-prevent-with-waivers",
    () =>
      scp(
        bundle({
          definition: awsDefinition("require-ec2-imdsv2"),
          scopes: [{ id: "r-ab12" }],
          excludedScopes: [{ id: "ou-ab12-99999999" }],
          waivers: [
            waiver("w-7d1c", 24, { principalArn: "arn:aws:iam::111122223333:role/LegacyBatch" }),
            waiver("w-9e5b", 72, { accountId: "444455556666" }),
          ],
        }),
      ),
  ],
  [
    "aws-deny-regions-outside-allowlist-alert",
    () =>
      scp(
        bundle({
          definition: awsDefinition("deny-regions-outside-allowlist"),
          mode: "ALERT",
          parameters: { allowed_regions: ["eu-west-1", "eu-central-1"] },
          scopes: [{ id: "ou-ab12-11111111" }, { id: "ou-ab12-22222222" }],
        }),
      ),
  ],
  [
    "aws-deny-leave-organization-prevent",
    () => scp(bundle({ definition: awsDefinition("deny-leave-organization") })),
  ],
  [
    "azure-allowed-locations-prevent-with-waiver",
    () =>
      compileAzureBundle(
        bundle({
          definition: azureDefinition("allowed-locations"),
          parameters: { listOfAllowedLocations: ["westeurope", "northeurope", "swedencentral"] },
          scopes: [{ id: SUB }],
          excludedScopes: [{ id: `${SUB}/resourceGroups/sandbox-rg` }],
          waivers: [
            waiver("w-51a0", 48, {
              resource: `${SUB}/resourceGroups/app-rg/providers/Microsoft.Compute/virtualMachines/legacy-vm`,
            }),
          ],
        }),
      ),
  ],
  [
    "azure-deny-nic-public-ip-alert",
    () =>
      compileAzureBundle(
        bundle({
          definition: azureDefinition("deny-nic-public-ip"),
          mode: "ALERT",
          scopes: [{ id: `${SUB}/resourceGroups/app-rg` }],
        }),
      ),
  ],
  [
    "azure-storage-accounts-https-only-prevent",
    () =>
      compileAzureBundle(
        bundle({ definition: azureDefinition("storage-accounts-https-only"), scopes: [{ id: SUB }] }),
      ),
  ],
];

describe("compiled bundles match the reviewed golden files", () => {
  it.each(bundles)("%s", (name, compile) => {
    const file = new URL(`${name}.json`, GOLDEN_DIR);
    const actual = compile();
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(GOLDEN_DIR, { recursive: true });
      writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    }
    expect(existsSync(file), `missing ${name}.json; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual).toEqual(JSON.parse(readFileSync(file, "utf8")));
  });
});
