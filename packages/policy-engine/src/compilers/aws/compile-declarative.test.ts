import { describe, expect, it } from "vitest";
import { parseCatalogue } from "../../catalogue/parse-catalogue";
import { readCatalogueFiles } from "../../catalogue/read-catalogue-files";
import { validateDeclarativeContent } from "../../evaluators/declarative/declarative-syntax";
import type { CompileBundleInput } from "../compile-input";
import { compileDeclarative } from "./compile-declarative";

// Declarative policies for EC2: the documented `ec2_attributes` syntax with an exception_message
// carrying the key and the waiver address
// (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_declarative_syntax.html).
const catalogue = parseCatalogue(readCatalogueFiles());
const input = (over: Partial<CompileBundleInput> = {}): CompileBundleInput => ({
  definition: catalogue.bySlug.get("ec2-imdsv2-required")!,
  parameters: {},
  mode: "PREVENT",
  key: "ABC2345",
  name: "IMDSv2 everywhere",
  scopes: [{ id: "ou-ab12-workloads" }],
  excludedScopes: [],
  waivers: [],
  waiverLinkBaseUrl: "https://palisade.example/",
  now: new Date("2026-06-01T00:00:00Z"),
  definitions: catalogue.bySlug,
  ...over,
});
// root > ou-ab12-workloads > {ou-ab12-prod > {111111111111, 222222222222}, 333333333333}
const parentOf = {
  "ou-ab12-workloads": "r-ab12",
  "ou-ab12-prod": "ou-ab12-workloads",
  "111111111111": "ou-ab12-prod",
  "222222222222": "ou-ab12-prod",
  "333333333333": "ou-ab12-workloads",
};
const waiver = (accountId: string, expiresAt = "2026-06-02T00:00:00Z") => ({
  id: `w-${accountId}`,
  key: "ABC2345",
  expiresAt: new Date(expiresAt),
  accountId,
});

describe("compileDeclarative", () => {
  it("compiles a valid document whose exception_message carries the key and the /req address", () => {
    const compiled = compileDeclarative(input({ parameters: { hop_limit: 1 } }));
    expect(() => validateDeclarativeContent(compiled.content)).not.toThrow();
    const doc = JSON.parse(compiled.content);
    expect(doc.ec2_attributes.instance_metadata_defaults).toEqual({
      http_tokens: { "@@assign": "required" },
      http_put_response_hop_limit: { "@@assign": "1" },
    });
    expect(doc.ec2_attributes.exception_message["@@assign"]).toBe(compiled.exceptionMessage);
    expect(compiled.exceptionMessage).toContain("policy key ABC2345");
    expect(compiled.exceptionMessage).toContain("https://palisade.example/req?k=ABC2345");
    expect(compiled).toMatchObject({
      name: "palisade-ABC2345-ec2-imdsv2-required",
      targets: ["ou-ab12-workloads"],
      attach: true,
    });
  });

  it("keeps the message within the bound with a long bundle name, and ALERT attaches nothing", () => {
    const compiled = compileDeclarative(input({ name: "x".repeat(2000), mode: "ALERT" }));
    expect(compiled.exceptionMessage.length).toBeLessThanOrEqual(1024);
    expect(compiled.exceptionMessage).toContain("ABC2345");
    expect(compiled.exceptionMessage).toContain("/req?k=ABC2345");
    expect(compiled.attach).toBe(false);
  });

  it("leaves a waived account out by attaching to its siblings at each level", () => {
    const compiled = compileDeclarative(input({ waivers: [waiver("111111111111")], parentOf }));
    expect(compiled.targets.sort()).toEqual(["222222222222", "333333333333"]);
    expect(compiled.waivedAccounts).toEqual(["111111111111"]);
    // Expired waivers no longer exempt anyone.
    const later = compileDeclarative(
      input({ waivers: [waiver("111111111111")], parentOf, now: new Date("2026-06-03T00:00:00Z") }),
    );
    expect(later.targets).toEqual(["ou-ab12-workloads"]);
  });

  it("refuses waivers that do not name an account, and accounts outside the known hierarchy", () => {
    expect(() =>
      compileDeclarative(
        input({
          waivers: [
            { ...waiver("111111111111"), accountId: undefined, principalArn: "arn:aws:iam::1:role/x" },
          ],
          parentOf,
        }),
      ),
    ).toThrow(/exempt whole accounts only/);
    expect(() => compileDeclarative(input({ waivers: [waiver("999999999999")], parentOf }))).toThrow(
      /not in the synced hierarchy/,
    );
  });
});
