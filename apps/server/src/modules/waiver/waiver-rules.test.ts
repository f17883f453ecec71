import { ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema, ProductErrorCode } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import {
  describeTarget,
  enclosingScopes,
  parseCreateInput,
  refusedTransition,
  reportedStatus,
  type WaiverStatusName,
  type WaiverTarget,
} from "./waiver-rules";

const statuses: WaiverStatusName[] = ["PENDING", "ACTIVE", "EXPIRED", "CANCELLED", "REJECTED"];
const allowed = new Set([
  "PENDING>ACTIVE",
  "PENDING>REJECTED",
  "PENDING>CANCELLED",
  "ACTIVE>EXPIRED",
  "ACTIVE>CANCELLED",
]);

describe("waiver transitions", () => {
  const pairs = statuses.flatMap((from) => statuses.map((to) => [from, to] as const));
  it.each(pairs)("%s -> %s", (from, to) => {
    const refused = refusedTransition(from, to);
    if (allowed.has(`${from}>${to}`)) {
      expect(refused).toBeUndefined();
    } else {
      expect(refused).toContain(`from ${from} to ${to}`);
    }
  });
});

describe("reported status", () => {
  it.each([
    ["ACTIVE", "ACTIVE", "ACTIVE"],
    ["ACTIVE", "PENDING", "PENDING"],
    ["ACTIVE", "FAILED", "PENDING"],
    ["PENDING", "PENDING", "PENDING"],
    ["EXPIRED", "ACTIVE", "EXPIRED"],
    ["CANCELLED", "FAILED", "CANCELLED"],
  ])("%s with the cloud %s reads %s", (status, deployment, expected) => {
    expect(reportedStatus(status, deployment)).toBe(expected);
  });
});

function messageOf(request: Parameters<typeof parseCreateInput>[0]): string | undefined {
  try {
    parseCreateInput(request);
    return undefined;
  } catch (error) {
    return ConnectError.from(error).rawMessage;
  }
}

const valid = {
  key: "abcdefg",
  duration: 3_600n,
  comment: "deploying the fix",
  target: { case: undefined },
} as const;

describe("create input", () => {
  it.each([
    ["empty key", { ...valid, key: "  " }, "Policy key is required"],
    ["short key", { ...valid, key: "ABC" }, "Key must be 7 characters long"],
    ["long key", { ...valid, key: "ABCDEFGH" }, "Key must be 7 characters long"],
    // The duration's range and the comment's length are bounds of the contract (request-bounds.test.ts).
    ["blank comment", { ...valid, comment: "   " }, "Comment is required"],
    // Counted as a person sees them (grapheme clusters), as the request page counts them.
    ["comment of 221 characters", { ...valid, comment: "c".repeat(221) }, "comment: must be at most 220"],
    [
      "comment of 220 letters and a family emoji",
      { ...valid, comment: `${"c".repeat(220)}\u{1F468}\u200D\u{1F469}\u200D\u{1F467}` },
      "comment: must be at most 220",
    ],
    [
      "scope that is not one",
      { ...valid, target: { case: "scopeExternalId", value: "my-account" } },
      'scope_external_id "my-account" is not a scope',
    ],
    [
      "principal that is not an IAM ARN",
      { ...valid, target: { case: "principalArn", value: "arn:aws:s3:::bucket" } },
      "is not an IAM principal ARN",
    ],
  ] as const)("refuses a %s", (_name, request, message) => {
    expect(messageOf(request)).toContain(message);
  });

  it.each([
    ["the bounds of the duration", { ...valid, duration: 259_200n }],
    ["a comment of exactly 220 characters", { ...valid, comment: "y".repeat(220) }],
    ["a key with spaces around it", { ...valid, key: " abcdefg " }],
  ] as const)("accepts %s", (_name, request) => {
    expect(messageOf(request)).toBeUndefined();
  });

  it("refuses a target it cannot read with PARSE_WAIVER_SCOPE_FAILED at the target's field", () => {
    let refused: ConnectError | undefined;
    try {
      parseCreateInput({ ...valid, target: { case: "resourceExternalId", value: "stdata01" } });
    } catch (error) {
      refused = ConnectError.from(error);
    }
    const [detail] = refused?.findDetails(ErrorDetailSchema) ?? [];
    expect(detail?.code).toBe(ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED);
    expect(detail?.fieldViolations.map((v) => v.field)).toEqual(["resource_external_id"]);
  });

  // aws:PrincipalArn of a role session is its role's ARN
  // (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn).
  it("names a role session's role as the principal", () => {
    const input = parseCreateInput({
      ...valid,
      target: { case: "principalArn", value: "arn:aws:sts::111122223333:assumed-role/Developer/alice" },
    });
    expect(input.target).toEqual({ kind: "principal", arn: "arn:aws:iam::111122223333:role/Developer" });
  });

  it("takes 219 characters and an emoji as the 220 a person counts", () => {
    const comment = `${"c".repeat(219)}\u{1F44D}\u{1F3FD}`;
    expect(parseCreateInput({ ...valid, comment }).comment).toBe(comment);
  });

  it("upper-cases the key and trims the comment", () => {
    const input = parseCreateInput({ ...valid, key: " abcdefg", comment: "  reason  " });
    expect(input).toMatchObject({ key: "ABCDEFG", comment: "reason", durationSeconds: 3_600 });
  });
});

describe("targets", () => {
  it.each<[WaiverTarget, string, string[]]>([
    [{ kind: "scope", externalId: "111122223333" }, "Account 111122223333", ["111122223333"]],
    [
      { kind: "scope", externalId: "ou-ab12-cd34ef56" },
      "Organizational unit ou-ab12-cd34ef56",
      ["ou-ab12-cd34ef56"],
    ],
    [
      { kind: "resource", externalId: "arn:aws:s3:::logs-111122223333" },
      "Resource arn:aws:s3:::logs-111122223333",
      [],
    ],
    [
      { kind: "principal", arn: "arn:aws:iam::111122223333:role/deployer" },
      "Principal arn:aws:iam::111122223333:role/deployer (every session of the IAM role deployer in account 111122223333, whatever its path)",
      ["111122223333"],
    ],
    [
      { kind: "scope", externalId: "/subscriptions/s1/resourceGroups/rg1" },
      "Resource group rg1 (subscription s1)",
      ["/subscriptions/s1/resourceGroups/rg1", "/subscriptions/s1"],
    ],
    [
      {
        kind: "resource",
        externalId: "/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/st",
      },
      "Resource /subscriptions/s1/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/st",
      [
        "/subscriptions/s1/resourceGroups/rg1/providers/Microsoft.Storage/storageAccounts/st",
        "/subscriptions/s1/resourceGroups/rg1",
        "/subscriptions/s1",
      ],
    ],
    [
      { kind: "scope", externalId: "/providers/Microsoft.Management/managementGroups/platform" },
      "Management group platform",
      ["/providers/Microsoft.Management/managementGroups/platform"],
    ],
  ])("%o reads %s and sits in %o", (target, description, scopes) => {
    expect(describeTarget(target)).toBe(description);
    expect(enclosingScopes(target)).toEqual(scopes);
  });
});
