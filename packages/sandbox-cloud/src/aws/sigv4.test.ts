import { describe, expect, it } from "vitest";
import { parseAuthorization, signatureMatches, signRequest } from "./sigv4";

const credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};

function signed(body: string) {
  const req = {
    method: "POST",
    path: "/",
    query: new URLSearchParams(),
    headers: {
      Host: "127.0.0.1:4510",
      "Content-Type": "application/x-amz-json-1.1",
      "X-Amz-Target": "CloudTrail_20131101.LookupEvents",
    } as Record<string, string>,
    body,
  };
  signRequest(req, credentials, "us-east-1", "cloudtrail", new Date("2025-01-02T03:04:05Z"));
  return req;
}

describe("SigV4", () => {
  it("verifies what it signed and names the scope", () => {
    const req = signed("{}");
    const auth = parseAuthorization(req.headers.authorization)!;
    expect(auth).toMatchObject({
      accessKeyId: "AKIDEXAMPLE",
      date: "20250102",
      region: "us-east-1",
      service: "cloudtrail",
    });
    expect(auth.signedHeaders).toEqual(["content-type", "host", "x-amz-date", "x-amz-target"]);
    expect(req.headers["x-amz-date"]).toBe("20250102T030405Z");
    expect(signatureMatches(req, auth, credentials.secretAccessKey)).toBe(true);
  });

  it.each([
    ["another secret", (r: ReturnType<typeof signed>) => ({ ...r }), "other-secret"],
    [
      "a changed body",
      (r: ReturnType<typeof signed>) => ({ ...r, body: '{"MaxResults":1}' }),
      credentials.secretAccessKey,
    ],
    [
      "a changed signed header",
      (r: ReturnType<typeof signed>) => ({ ...r, headers: { ...r.headers, "x-amz-target": "X.Y" } }),
      credentials.secretAccessKey,
    ],
  ])("rejects %s", (_name, tamper, secret) => {
    const req = signed("{}");
    const auth = parseAuthorization(req.headers.authorization)!;
    expect(signatureMatches(tamper(req), auth, secret)).toBe(false);
  });
});
