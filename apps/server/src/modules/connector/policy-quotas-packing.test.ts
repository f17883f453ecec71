import { parseCatalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { readCatalogueFiles } from "@palisade/policy-engine/catalogue/read-catalogue-files";
import { compileScp } from "@palisade/policy-engine/compilers/aws/compile-scp";
import {
  guardrailStatements,
  type PackGuardrail,
  packScps,
  SCP_OVERHEAD,
} from "@palisade/policy-engine/compilers/aws/pack-scps";
import { PolicyLimitExceededError } from "@palisade/policy-engine/compilers/compile-input";
import { describe, expect, it } from "vitest";
import { policyLimitsOf } from "./policy-quotas";

// Quotas: https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html
const TARGET = "ou-ab12-11111111";
const DEFAULT_CONNECTOR = { provider: "aws" };
/** A connector stating the SCP quotas AWS had before it doubled them on 15 May 2026. */
const LOWER_CONNECTOR = {
  provider: "aws",
  policyLimits: { SERVICE_CONTROL_POLICY: { perTarget: 5, characters: 5120 } },
};
const KEYS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A guardrail whose statements take exactly `size` characters in an SCP of their own. */
function sized(index: number, size: number): PackGuardrail {
  const key = `AAAAA${KEYS[Math.floor(index / 32)]}${KEYS[index % 32]}`;
  const base = {
    Effect: "Deny",
    Action: "s3:GetObject",
    Resource: "*",
    Condition: { StringEquals: { x: "" } },
  };
  const probe = guardrailStatements({ key, slug: "s", content: JSON.stringify({ Statement: [base] }) })[0]!;
  const statement = {
    ...base,
    Condition: { StringEquals: { x: "a".repeat(size - SCP_OVERHEAD - probe.length) } },
  };
  return {
    key,
    slug: `sized-${index}`,
    content: JSON.stringify({ Version: "2012-10-17", Statement: [statement] }),
  };
}

describe("the connector's SCP quotas, used by the packer and the compiler", () => {
  // 40 guardrails of 2,500 characters: two fit in an SCP of 5,120 characters, four in one of 10,240.
  const guardrails = Array.from({ length: 40 }, (_, i) => sized(i, 2_500));
  const pack = (config: unknown) =>
    packScps({
      target: TARGET,
      guardrails,
      limits: policyLimitsOf(config, "SERVICE_CONTROL_POLICY"),
      // FullAWSAccess (or the organisation's own SCP) stays attached to every target.
      foreign: 1,
    });

  it("packs up to 10 SCPs of 10,240 characters on a target of a default connector", () => {
    const { packs, unplaced } = pack(DEFAULT_CONNECTOR);
    expect(packs).toHaveLength(9);
    expect(Math.max(...packs.map((p) => p.content.length))).toBeGreaterThan(5_120);
    for (const p of packs) expect(p.content.length).toBeLessThanOrEqual(10_240);
    expect(packs.flatMap((p) => p.keys)).toHaveLength(36);
    expect(unplaced).toHaveLength(4);
  });

  it("refuses beyond 5 SCPs of 5,120 characters on a target of a connector stating those quotas", () => {
    const { packs, unplaced } = pack(LOWER_CONNECTOR);
    expect(packs).toHaveLength(4);
    for (const p of packs) expect(p.content.length).toBeLessThanOrEqual(5_120);
    expect(packs.flatMap((p) => p.keys)).toHaveLength(8);
    expect(unplaced).toHaveLength(32);
    expect(unplaced[0]?.message).toMatch(/sized-8/);
  });

  it("compiles a guardrail over 5,120 characters only for a connector whose quota allows it", () => {
    const catalogue = parseCatalogue(readCatalogueFiles());
    const regions = Array.from({ length: 380 }, (_, i) => `xx-test-${i + 1}`);
    const compile = (config: unknown) =>
      compileScp({
        definition: catalogue.bySlug.get("deny-regions-outside-allowlist")!,
        definitions: catalogue.bySlug,
        parameters: { allowed_regions: regions },
        mode: "PREVENT",
        key: "7KQ2M9X",
        name: "regions",
        scopes: [{ id: TARGET }],
        excludedScopes: [],
        waivers: [],
        waiverLinkBaseUrl: "https://palisade.example.com",
        now: new Date(),
        scpMaxCharacters: policyLimitsOf(config, "SERVICE_CONTROL_POLICY").characters,
      });
    const length = compile(DEFAULT_CONNECTOR).content.length;
    expect(length).toBeGreaterThan(5_120);
    expect(length).toBeLessThanOrEqual(10_240);
    expect(() => compile(LOWER_CONNECTOR)).toThrow(PolicyLimitExceededError);
    expect(() => compile(LOWER_CONNECTOR)).toThrow(/5120-character limit/);
  });
});
