import { describe, expect, it } from "vitest";
import { catalogue } from "../../test/bundles";
import { deriveInitiatives } from "./initiatives";
import type { Catalogue } from "./parse-catalogue";

function withDefinitions(definitions: Catalogue["definitions"]): Catalogue {
  return { ...catalogue, definitions, bySlug: new Map(definitions.map((d) => [d.slug, d])) };
}

describe("deriveInitiatives", () => {
  const initiatives = deriveInitiatives(catalogue);
  const bySlug = new Map(initiatives.map((i) => [i.slug, i]));

  it("creates one initiative per framework", () => {
    expect(initiatives.map((i) => i.slug).sort()).toEqual(catalogue.frameworks.map((f) => f.id).sort());
    expect(bySlug.get("cis-aws-foundations-3.0.0")?.name).toBe(
      "CIS Amazon Web Services Foundations Benchmark 3.0.0",
    );
  });

  it.each([
    ["cis-aws-foundations-3.0.0", "5.6", ["ec2-imdsv2-required", "require-ec2-imdsv2"]],
    ["cis-azure-foundations-2.1.0", "3.1", ["storage-accounts-https-only"]],
    ["nist-sp-800-53-r5", "SA-9(5)", ["allowed-locations", "deny-regions-outside-allowlist"]],
    ["cis-aws-foundations-3.0.0", "2.1.4", []],
  ])("%s clause %s is covered by %j", (initiative, clause, slugs) => {
    expect(bySlug.get(initiative)?.clauses.find((c) => c.id === clause)?.definitionSlugs).toEqual(slugs);
  });

  it("counts covered and uncovered clauses consistently", () => {
    for (const initiative of initiatives) {
      const covered = initiative.clauses.filter((c) => c.definitionSlugs.length > 0).length;
      expect(initiative.coverage).toEqual({
        totalClauses: initiative.clauses.length,
        coveredClauses: covered,
        uncoveredClauses: initiative.clauses.length - covered,
        definitions: initiative.definitionSlugs.length,
      });
      expect(initiative.uncoveredClauses.map((c) => c.id)).toEqual(
        initiative.clauses.filter((c) => c.definitionSlugs.length === 0).map((c) => c.id),
      );
    }
    // The shipped frameworks deliberately list clauses no definition covers yet.
    expect(bySlug.get("cis-aws-foundations-3.0.0")?.coverage.uncoveredClauses).toBeGreaterThan(0);
  });

  it("leaves hidden definitions out of coverage", () => {
    const hidden = catalogue.definitions.map((d) =>
      d.slug === "require-ec2-imdsv2" || d.slug === "ec2-imdsv2-required" ? { ...d, is_visible: false } : d,
    );
    const cis = deriveInitiatives(withDefinitions(hidden)).find(
      (i) => i.slug === "cis-aws-foundations-3.0.0",
    )!;
    expect(cis.clauses.find((c) => c.id === "5.6")?.definitionSlugs).toEqual([]);
    expect(cis.definitionSlugs).not.toContain("require-ec2-imdsv2");
  });
});
