import { describe, expect, it } from "vitest";
import { bundle, KEY, NOW } from "../../../test/bundles";
import type { AwsRcpDefinition } from "../../catalogue/definition-schema";
import { parseCatalogue } from "../../catalogue/parse-catalogue";
import { readCatalogueFiles } from "../../catalogue/read-catalogue-files";
import { RCP_FULL_AWS_ACCESS } from "../../catalogue/run-cases";
import { evaluateOrganizationPolicies } from "../../evaluators/scp/evaluate-rcp";
import type { ContextValue } from "../../evaluators/scp/evaluate-scp";
import { validateScpDocument } from "../../evaluators/scp/validate-scp-document";
import { CompileError } from "../compile-input";
import { compileRcp } from "./compile-rcp";
import { DEFAULT_RCP_LIMITS, keyOfSid, packScps, parsePackName } from "./pack-scps";

const catalogue = parseCatalogue(readCatalogueFiles());
const definition = (slug: string) => catalogue.bySlug.get(slug) as AwsRcpDefinition;
const PARTNER = "arn:aws:iam::444455556666:role/Partner";
const BUCKET_OBJECT = "arn:aws:s3:::example-customer-data/export.csv";

function denies(content: string, principalArn: string, context: Record<string, ContextValue>): boolean {
  const rcp = {
    id: "p-test0000",
    arn: "arn:aws:organizations::999988887777:policy/o-abc/resource_control_policy/p-test0000",
    name: "t",
    document: content,
  };
  return (
    evaluateOrganizationPolicies(
      { action: "s3:GetObject", resource: BUCKET_OBJECT, principalArn, context },
      [],
      [[RCP_FULL_AWS_ACCESS, rcp]],
    ).decision === "explicit_deny"
  );
}

describe("compileRcp", () => {
  it("emits Deny statements with Principal * and the key in every Sid, valid for Organizations", () => {
    const compiled = compileRcp(bundle({ definition: definition("rcp-require-tls-s3") }));
    const document = JSON.parse(compiled.content);
    expect(document.Statement).toEqual([
      {
        Sid: `Palisade${KEY}S0`,
        Effect: "Deny",
        Principal: "*",
        Action: "s3:*",
        Resource: "*",
        Condition: { BoolIfExists: { "aws:SecureTransport": "false" } },
      },
    ]);
    expect(validateScpDocument(compiled.content, "rcp")).toEqual({ valid: true, errors: [] });
    expect(keyOfSid(document.Statement[0].Sid)).toBe(KEY);
  });

  it("waives one principal until the waiver ends, bounded by aws:CurrentTime", () => {
    const expiresAt = new Date(NOW.getTime() + 3_600_000);
    const compiled = compileRcp(
      bundle({
        definition: definition("rcp-s3-organization-principals-only"),
        waivers: [{ id: "w1", key: KEY, expiresAt, principalArn: PARTNER }],
      }),
    );
    const outside = { "aws:ResourceOrgID": "o-a1b2c3d4e5", "aws:PrincipalOrgID": "o-otherorg01" };
    const before = { ...outside, "aws:CurrentTime": "2026-03-01T08:30:00Z" };
    const after = { ...outside, "aws:CurrentTime": "2026-03-01T09:00:00Z" };
    expect(denies(compiled.content, PARTNER, before)).toBe(false);
    expect(denies(compiled.content, "arn:aws:iam::444455556666:role/Other", before)).toBe(true);
    expect(denies(compiled.content, PARTNER, after)).toBe(true);
    const sids = JSON.parse(compiled.content).Statement.map((s: { Sid: string }) => s.Sid);
    expect(sids).toEqual([`Palisade${KEY}S0W0`, `Palisade${KEY}S0W1`]);
  });

  it("refuses a tree naming a service resource control policies do not cover", () => {
    const base = definition("rcp-require-tls-s3");
    const ec2: AwsRcpDefinition = {
      ...base,
      slug: "synthetic-rcp",
      tree: { atomic: { Effect: "Deny", Action: ["s3:*", "ec2:RunInstances"], Resource: "*" } },
    };
    expect(() => compileRcp(bundle({ definition: ec2 }))).toThrowError(
      expect.objectContaining({
        code: "INVALID_TREE",
        message: expect.stringMatching(/cover only .*s3.*; ec2:RunInstances is not among them/),
      }),
    );
    const everything: AwsRcpDefinition = {
      ...base,
      tree: { atomic: { Effect: "Deny", Action: "*", Resource: "*" } },
    };
    expect(() => compileRcp(bundle({ definition: everything }))).toThrow(CompileError);
  });

  it("refuses an aws_scp definition and an RCP over its character limit", () => {
    const scp = catalogue.bySlug.get("deny-leave-organization")!;
    expect(() => compileRcp(bundle({ definition: scp }))).toThrow(/not aws_rcp/);
    expect(() =>
      compileRcp(bundle({ definition: definition("rcp-require-tls-s3"), rcpMaxCharacters: 100 })),
    ).toThrowError(expect.objectContaining({ code: "POLICY_LIMIT_EXCEEDED" }));
  });

  it("packs RCPs under their own names, keeping Principal", () => {
    const compiled = compileRcp(bundle({ definition: definition("rcp-require-tls-kms") }));
    const { packs } = packScps({
      target: "ou-ab12-cdef3456",
      guardrails: [{ key: KEY, slug: "rcp-require-tls-kms", content: compiled.content }],
      limits: DEFAULT_RCP_LIMITS,
      foreign: 1,
      policyType: "RESOURCE_CONTROL_POLICY",
    });
    expect(packs[0]!.name).toBe("palisade-rcp-ou-ab12-cdef3456-0");
    expect(parsePackName(packs[0]!.name, "RESOURCE_CONTROL_POLICY")).toEqual({
      target: "ou-ab12-cdef3456",
      slot: 0,
    });
    expect(parsePackName(packs[0]!.name)).toBeUndefined();
    expect(validateScpDocument(packs[0]!.content, "rcp").valid).toBe(true);
    expect(JSON.parse(packs[0]!.content).Statement[0].Principal).toBe("*");
  });
});
