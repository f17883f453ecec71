import { describe, expect, it } from "vitest";
import { scopeName, scopeNamesOf } from "@/lib/scope-names";
import { accountOf, denyMessageOf, readableRaw } from "./event-detail";

const trailDeny = {
  EventId: "e1",
  CloudTrailEvent: JSON.stringify({
    errorCode: "AccessDenied",
    errorMessage: "User: arn:aws:iam::1:user/alice is not authorized ... service control policy",
  }),
};
const azureDeny = {
  properties: {
    statusMessage: JSON.stringify({
      error: { code: "RequestDisallowedByPolicy", message: "Disallowed. Key ABCDEFG" },
    }),
  },
};

describe("denyMessageOf", () => {
  it.each([
    ["CloudTrail", trailDeny, "User: arn:aws:iam::1:user/alice is not authorized ... service control policy"],
    ["Activity Log", azureDeny, "Disallowed. Key ABCDEFG"],
    ["an allowed request", { CloudTrailEvent: JSON.stringify({ eventName: "x" }) }, ""],
    ["nothing", null, ""],
    ["broken JSON", { CloudTrailEvent: "{" }, ""],
  ])("%s", (_name, raw, expected) => {
    expect(denyMessageOf(raw)).toBe(expected);
  });
});

describe("readableRaw", () => {
  it("unfolds CloudTrail's nested JSON", () => {
    expect(readableRaw(trailDeny)).toContain('"errorCode": "AccessDenied"');
    expect(readableRaw(undefined)).toBe("null");
  });
});

describe("scope names", () => {
  const names = scopeNamesOf([
    {
      name: "Root",
      externalId: "r-ab12",
      children: [{ name: "corp-dev", externalId: "/subscriptions/ABC", children: [] }],
    },
  ]);
  it.each([
    ["r-ab12", "Root"],
    ["/subscriptions/abc", "corp-dev"],
    ["/subscriptions/abc/resourceGroups/rg-data", "rg-data"],
    ["123456789012", "123456789012"],
  ])("%s -> %s", (id, expected) => {
    expect(scopeName(names, id)).toBe(expected);
  });
  it("finds the account of a scope", () => {
    expect(accountOf("/subscriptions/abc/resourceGroups/rg")).toBe("/subscriptions/abc");
    expect(accountOf("123456789012")).toBe("123456789012");
  });
});
