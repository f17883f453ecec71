import { describe, expect, it } from "vitest";
import { exampleFiles } from "../../test/bundles";
import type { AwsDefinition } from "./definition-schema";
import { parseCatalogue } from "./parse-catalogue";
import { parseSubmittedDefinition, type SubmissionContext } from "./submitted-definition";

const catalogue = parseCatalogue(exampleFiles);
const context: SubmissionContext = {
  frameworks: catalogue.frameworks,
  aliases: catalogue.aliases,
  definitions: catalogue.bySlug,
};

type Doc = Record<string, unknown>;

/** A catalogue definition as the API would submit it: renamed, without cases. */
function submitted(slug: string, edit: (doc: Doc) => void = () => {}): Doc {
  const { cases: _cases, ...rest } = structuredClone(catalogue.bySlug.get(slug)!) as Doc;
  const doc: Doc = { ...rest, slug: `${slug}-custom` };
  edit(doc);
  return doc;
}

describe("parseSubmittedDefinition", () => {
  it("accepts every catalogue definition without its cases", () => {
    for (const definition of catalogue.definitions) {
      const result = parseSubmittedDefinition(submitted(definition.slug), context);
      expect(result.ok ? result.definition.cases : result.problems).toEqual([]);
    }
  });

  it.each<[string, Doc, string]>([
    [
      "bad parameter type",
      submitted("deny-regions-outside-allowlist", (d) => {
        (d.parameter_definitions as Doc[])[0]!.type = "list";
      }),
      "parameter_definitions[0].type",
    ],
    [
      "unknown field",
      submitted("deny-leave-organization", (d) => {
        d.severity = "high";
      }),
      "severity",
    ],
    [
      "unknown framework clause",
      submitted("deny-leave-organization", (d) => {
        d.frameworks = [{ name: "cis-aws-foundations-3.0.0", section: "99.9" }];
      }),
      "frameworks[0].section",
    ],
    [
      "undeclared Azure alias",
      submitted("deny-nic-public-ip", (d) => {
        d.tree = { atomic: { field: "Microsoft.Network/networkInterfaces/madeUp", exists: true } };
      }),
      "tree.atomic.field",
    ],
    [
      "reference to a missing definition",
      submitted("deny-leave-organization", (d) => {
        d.tree = { policy_reference: "no-such-definition" };
      }),
      "tree.policy_reference",
    ],
    [
      "reference to a definition of the other enforcer",
      submitted("deny-leave-organization", (d) => {
        d.tree = { policy_reference: "allowed-locations" };
      }),
      "tree.policy_reference",
    ],
    [
      "feedback message without the policy key",
      submitted("deny-leave-organization", (d) => {
        d.feedback_message_template = "Denied.";
      }),
      "feedback_message_template",
    ],
  ])("rejects %s naming the field", (_name, doc, field) => {
    const result = parseSubmittedDefinition(doc, context);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => p.field)).toContain(field);
  });

  it("rejects a reference cycle through the submitted definition", () => {
    const leave = catalogue.bySlug.get("deny-leave-organization") as AwsDefinition;
    const definitions = new Map(catalogue.bySlug);
    definitions.set("loop-a", { ...leave, slug: "loop-a", tree: { policy_reference: "loop-b" } });
    const loopB = submitted("deny-leave-organization", (d) => {
      d.slug = "loop-b";
      d.tree = { policy_reference: "loop-a" };
    });
    expect(parseSubmittedDefinition(loopB, { ...context, definitions })).toEqual({
      ok: false,
      problems: [{ field: "tree", message: "policy_reference cycle: loop-b -> loop-a -> loop-b" }],
    });
  });
});
