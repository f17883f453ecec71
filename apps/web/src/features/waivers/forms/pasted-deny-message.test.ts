import { describe, expect, it } from "vitest";
import {
  denyMessageExcerpt,
  maxDenyMessageLength,
  readKeyField,
  scopeInDenyMessage,
} from "./pasted-deny-message";

const awsDeny =
  "An error occurred (AccessDenied) when calling the DeleteBucket operation: User: " +
  "arn:aws:sts::111122223333:assumed-role/dev/jo is not authorized to perform: s3:DeleteBucket on resource: " +
  '"arn:aws:s3:::audit-logs" with an explicit deny in a service control policy: ' +
  "arn:aws:organizations::111122223333:policy/o-a1b2c3d4e5/service_control_policy/p-4f8qh2zx";

const azureDeny =
  "(RequestDisallowedByPolicy) Resource 'stg1' was disallowed by policy. Reasons: 'Blocked by Palisade " +
  "policy key K7QX2MD. Request a waiver at https://palisade.example/req?k=K7QX2MD'.";

describe("readKeyField", () => {
  it.each([
    ["", { kind: "typed" }],
    ["K7Q", { kind: "typed" }],
    ["K7QX2MD", { kind: "typed" }],
    ["  K7QX2MD  ", { kind: "typed" }],
    ["K7QX2MDX", { kind: "typed" }],
    [azureDeny, { kind: "key", key: "K7QX2MD" }],
    ["https://palisade.example/req?k=k7qx2md", { kind: "key", key: "K7QX2MD" }],
    [awsDeny, { kind: "resolve", text: awsDeny }],
    ["AccessDenied: not authorized", { kind: "typed" }],
  ])("%j is %j", (value, expected) => {
    expect(readKeyField(value)).toEqual(expected);
  });
});

describe("denyMessageExcerpt", () => {
  const encoded = `Encoded authorization failure message: ${"x".repeat(5000)}`;

  it("sends a message within the limit as it is", () => {
    expect(denyMessageExcerpt(awsDeny)).toBe(awsDeny);
  });

  it("keeps the SCP ARN of a long message within the limit", () => {
    const excerpt = denyMessageExcerpt(`${encoded} ${awsDeny}`);
    expect(excerpt.length).toBeLessThanOrEqual(maxDenyMessageLength);
    expect(excerpt).toContain(
      "arn:aws:organizations::111122223333:policy/o-a1b2c3d4e5/service_control_policy/p-4f8qh2zx",
    );
    expect(readKeyField(excerpt)).toEqual({ kind: "resolve", text: excerpt });
  });

  it("cuts a long message without an SCP to the limit", () => {
    expect(denyMessageExcerpt(encoded)).toHaveLength(maxDenyMessageLength);
  });
});

describe("scopeInDenyMessage", () => {
  it("names the account of the denied principal, not the organisation's management account", () => {
    expect(scopeInDenyMessage(awsDeny)).toEqual({ search: "111122223333", candidates: ["111122223333"] });
    expect(
      scopeInDenyMessage(
        "User: arn:aws:iam::444455556666:user/jo is not authorized to perform: iam:CreateUser",
      ),
    ).toEqual({ search: "444455556666", candidates: ["444455556666"] });
  });

  it("names the resource group, then the subscription, of an Azure resource id", () => {
    const sub = "/subscriptions/0b1f6471-1bf0-4dda-aec3-cb9272f09590";
    expect(
      scopeInDenyMessage(
        `(RequestDisallowedByPolicy) Resource 'stg1' was disallowed by policy. Target: '${sub}/resourceGroups/rg-app.1/providers/Microsoft.Storage/storageAccounts/stg1'.`,
      ),
    ).toEqual({ search: sub, candidates: [`${sub}/resourceGroups/rg-app.1`, sub] });
    expect(scopeInDenyMessage(`denied at scope ${sub}.`)).toEqual({ search: sub, candidates: [sub] });
  });

  it("finds nothing in a message naming no account or subscription", () => {
    expect(scopeInDenyMessage(azureDeny)).toBeNull();
    expect(scopeInDenyMessage("AccessDenied")).toBeNull();
  });
});
