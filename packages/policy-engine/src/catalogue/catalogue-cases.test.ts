import { describe, expect, it } from "vitest";
import type { AwsDefinition } from "./definition-schema";
import { parseCatalogue } from "./parse-catalogue";
import { readCatalogueFiles } from "./read-catalogue-files";
import { runCatalogueCases, runDefinitionCases } from "./run-cases";

const catalogue = parseCatalogue(readCatalogueFiles());
const outcomes = runCatalogueCases(catalogue);

describe("catalogue cases", () => {
  it("runs every case of every definition in each of its modes", () => {
    const expected = catalogue.definitions.reduce(
      (sum, d) => sum + d.cases.reduce((n, c) => n + (c.mode === "both" ? 2 : 1), 0),
      0,
    );
    expect(outcomes).toHaveLength(expected);
  });

  it.each(outcomes.map((o) => [`${o.slug} ${o.mode} ${o.expect}: ${o.caseName}`, o] as const))(
    "%s",
    (_name, outcome) => {
      expect(outcome.passed, `expected ${outcome.expect} in ${outcome.mode}, got: ${outcome.actual}`).toBe(
        true,
      );
    },
  );

  it("reports a case whose expectation is wrong", () => {
    const definition = catalogue.bySlug.get("require-ec2-imdsv2") as AwsDefinition;
    const flipped: AwsDefinition = {
      ...definition,
      cases: definition.cases.map((c) => ({ ...c, expect: c.expect === "deny" ? "allow" : "deny" })),
    };
    const results = runDefinitionCases(flipped, catalogue);
    expect(results.every((r) => !r.passed)).toBe(true);
  });

  it("fails the cases of a definition that does not compile, naming the reason", () => {
    const definition = catalogue.bySlug.get("deny-leave-organization") as AwsDefinition;
    const broken: AwsDefinition = {
      ...definition,
      tree: {
        junction: {
          operator: "and",
          nodes: [
            definition.tree,
            { atomic: { Effect: "Deny", Action: "account:CloseAccount", Resource: "*" } },
          ],
        },
      },
    };
    const results = runDefinitionCases(broken, catalogue);
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.passed).toBe(false);
      expect(result.actual).toMatch(
        /^does not compile: children of an and junction must name the same Action/,
      );
    }
  });
});
