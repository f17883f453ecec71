import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  findPolicyKeyInText,
  generatePolicyKey,
  isPolicyKeyFormat,
  normalizePolicyKey,
  POLICY_KEY_ALPHABET,
} from "./policy-key";

describe("policy key alphabet", () => {
  it("has 32 distinct symbols without I, L, O or U", () => {
    expect(new Set(POLICY_KEY_ALPHABET).size).toBe(32);
    for (const letter of "ILOU") expect(POLICY_KEY_ALPHABET).not.toContain(letter);
  });
});

describe("generatePolicyKey", () => {
  it("maps bytes onto the alphabet by their low five bits", () => {
    const bytes = Uint8Array.from([0, 31, 32, 255, 10, 42, 128 + 18]);
    expect(generatePolicyKey(() => bytes)).toBe("0Z0ZAAJ");
  });

  it("produces well-formed keys from real randomness", () => {
    for (let i = 0; i < 200; i++)
      expect(isPolicyKeyFormat(generatePolicyKey((n) => randomBytes(n)))).toBe(true);
  });

  it("gives every symbol exactly 8 of the 256 byte values, so uniform bytes give uniform keys", () => {
    const counts = new Map<string, number>();
    for (let value = 0; value < 256; value++) {
      const symbol = generatePolicyKey((n) => new Uint8Array(n).fill(value))[0]!;
      counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    }
    expect(counts.size).toBe(32);
    expect(new Set(counts.values())).toEqual(new Set([8]));
  });

  it("rejects a short random source", () => {
    expect(() => generatePolicyKey(() => new Uint8Array(3))).toThrow(/3 bytes/);
  });
});

describe("normalizePolicyKey and isPolicyKeyFormat", () => {
  it.each([
    ["  ab12cde ", "AB12CDE", true],
    ["AB12CDE", "AB12CDE", true],
    ["ab12cd", "AB12CD", false],
    ["AB12CDEF", "AB12CDEF", false],
    ["AB1ICDE", "AB1ICDE", false],
    ["OUTLIER", "OUTLIER", false],
    ["AB-2CDE", "AB-2CDE", false],
  ])("%j -> %j (valid: %s)", (input, normalized, valid) => {
    expect(normalizePolicyKey(input)).toBe(normalized);
    expect(isPolicyKeyFormat(normalizePolicyKey(input))).toBe(valid);
  });
});

const AZURE_DENY = `{"error":{"code":"RequestDisallowedByPolicy","target":"legacyexport01","message":"Resource 'legacyexport01' was disallowed by policy. Reasons: 'Storage accounts must require secure transfer (HTTPS only); this request was denied by the policy \\"HTTPS only\\" (policy key 7KQ2M9X). Set supportsHttpsTrafficOnly to true, or request a time-limited waiver at https://palisade.example.com/req?k=7KQ2M9X.'. See error details for policy resource IDs.","additionalInfo":[{"type":"PolicyViolation","info":{"policyAssignmentName":"palisade-7KQ2M9X-storage-accounts-https-only","policyAssignmentId":"/subscriptions/6f0a8a3c-2b1e-4c43-9d4b-2a7d1c9e5b11/providers/Microsoft.Authorization/policyAssignments/palisade-7KQ2M9X-storage-accounts-https-only"}}]}}`;

const AWS_DENY =
  "An error occurred (UnauthorizedOperation) when calling the RunInstances operation: You are not authorized to perform this operation. User: arn:aws:sts::111122223333:assumed-role/Developer/jane is not authorized to perform: ec2:RunInstances on resource: arn:aws:ec2:eu-west-1:111122223333:instance/* with an explicit deny in a service control policy: arn:aws:organizations::999988887777:policy/o-a1b2c3d4e5/service_control_policy/p-k3x9v2m1q8";

// As the sandbox writes an S3 denial by a resource control policy, the way AWS names it
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html).
const AWS_RCP_DENY =
  'User: arn:aws:iam::444455556666:role/Partner is not authorized to perform: s3:GetObject on resource: "arn:aws:s3:::example-data/report.csv" with an explicit deny in a resource control policy: arn:aws:organizations::999988887777:policy/o-a1b2c3d4e5/resource_control_policy/p-r7c2p9x4m1';

describe("findPolicyKeyInText", () => {
  it.each<[string, string, { key?: string; scpPolicyIds: string[] }]>([
    ["an Azure RequestDisallowedByPolicy error", AZURE_DENY, { key: "7KQ2M9X", scpPolicyIds: [] }],
    [
      "only the waiver link",
      "see https://palisade.example.com/req?k=h4t8w2p for details",
      { key: "H4T8W2P", scpPolicyIds: [] },
    ],
    [
      // EC2's refusal under a declarative policy carries its exception_message
      // (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).
      "an EC2 refusal with a declarative policy's message",
      'An error occurred (UnauthorizedOperation) when calling the RunInstances operation: New EC2 instances must use IMDSv2 under the guardrail "IMDSv2" (policy key H4T8W2P). Launch with MetadataOptions HttpTokens=required, or request a time-limited waiver for this account at https://palisade.example/req?k=H4T8W2P (declarative policy: MetadataOptions.HttpTokens must be required)',
      { key: "H4T8W2P", scpPolicyIds: [] },
    ],
    [
      "a declarative policy's short message, cut before its link",
      "UnauthorizedOperation: Refused by the Palisade guardrail h4t8w2p. Request a wai",
      { key: "H4T8W2P", scpPolicyIds: [] },
    ],
    [
      "a JSON-escaped waiver link",
      "waiver at https://x.example/req?k\\u003dH4T8W2P",
      { key: "H4T8W2P", scpPolicyIds: [] },
    ],
    [
      "an assignment name",
      "policyAssignmentName: palisade-H4T8W2P-allowed-locations",
      { key: "H4T8W2P", scpPolicyIds: [] },
    ],
    ["the key alone", "  h4t8w2p\n", { key: "H4T8W2P", scpPolicyIds: [] }],
    ["an AWS AccessDenied naming an SCP", AWS_DENY, { scpPolicyIds: ["p-k3x9v2m1q8"] }],
    ["an AWS AccessDenied naming an RCP", AWS_RCP_DENY, { scpPolicyIds: ["p-r7c2p9x4m1"] }],
    [
      "a deny without any Palisade reference",
      "AccessDenied: not authorized to perform s3:GetObject",
      { scpPolicyIds: [] },
    ],
    ["a key-shaped word that uses a forbidden letter", "policy key OUTLIER", { scpPolicyIds: [] }],
  ])("reads %s", (_name, text, expected) => {
    expect(findPolicyKeyInText(text)).toEqual(expected);
  });
});
