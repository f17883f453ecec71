import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { exampleFiles } from "../../test/bundles";
import { CatalogueError, type CatalogueFile, parseCatalogue } from "./parse-catalogue";
import { readCatalogueFiles } from "./read-catalogue-files";

const real = exampleFiles;
const LEAVE = "catalogue/definitions/aws/deny-leave-organization.yaml";
const REGIONS = "catalogue/definitions/aws/deny-regions-outside-allowlist.yaml";
const NIC = "catalogue/definitions/azure/deny-nic-public-ip.yaml";

type Doc = Record<string, unknown> & { [key: string]: unknown };

/** The real catalogue with one file's YAML document changed (or a file added). */
function withEdit(path: string, edit: (doc: Doc) => void, newPath = path): CatalogueFile[] {
  const original = real.find((file) => file.path === path)!;
  const doc = parse(original.text) as Doc;
  edit(doc);
  const edited = { path: newPath, text: stringify(doc) };
  return newPath === path ? real.map((file) => (file.path === path ? edited : file)) : [...real, edited];
}

function errorOf(files: CatalogueFile[]): string {
  try {
    parseCatalogue(files);
  } catch (error) {
    if (error instanceof CatalogueError) return error.message;
    throw error;
  }
  throw new Error("catalogue was accepted");
}

describe("parseCatalogue", () => {
  it("accepts the shipped catalogue", () => {
    expect(() => parseCatalogue(readCatalogueFiles())).not.toThrow();
    const catalogue = parseCatalogue(real);
    expect(catalogue.definitions.map((d) => d.slug)).toContain("require-ec2-imdsv2");
    expect(catalogue.bySlug.get("allowed-locations")?.enforcer).toBe("azure_policy");
    expect(catalogue.frameworks).toHaveLength(6);
    expect(catalogue.aliases["Microsoft.Storage/storageAccounts"]).toHaveProperty(
      "Microsoft.Storage/storageAccounts/supportsHttpsTrafficOnly",
      "properties.supportsHttpsTrafficOnly",
    );
  });

  it.each<[string, CatalogueFile[], string]>([
    [
      "bad parameter type",
      withEdit(REGIONS, (d) => {
        (d.parameter_definitions as Doc[])[0]!.type = "list";
      }),
      `${REGIONS}: parameter_definitions[0].type: Invalid option: expected one of`,
    ],
    [
      "unknown key",
      withEdit(LEAVE, (d) => {
        d.severity = "high";
      }),
      `${LEAVE}: severity: unknown field`,
    ],
    [
      "slug differs from file name",
      withEdit(LEAVE, (d) => {
        d.slug = "deny-leaving";
      }),
      `${LEAVE}: slug: must equal the file name (deny-leave-organization)`,
    ],
    [
      "enforcer in the wrong folder",
      withEdit(LEAVE, () => {}, "catalogue/definitions/azure/deny-leave-organization.yaml"),
      "catalogue/definitions/azure/deny-leave-organization.yaml: enforcer: definitions under azure/ must use azure_policy",
    ],
    [
      "undeclared placeholder",
      withEdit(REGIONS, (d) => {
        ((d.tree as Doc).atomic as Doc).Resource = "arn:aws:s3:::{{bucket}}";
      }),
      `${REGIONS}: tree.atomic: refers to undeclared parameter bucket`,
    ],
    [
      "default value of the wrong type",
      withEdit(REGIONS, (d) => {
        (d.parameter_definitions as Doc[])[0]!.default_value = "eu-west-1";
      }),
      `${REGIONS}: parameter_definitions[0].default_value: expected an array`,
    ],
    [
      "default value outside allowed values",
      withEdit("catalogue/definitions/aws/require-ec2-imdsv2.yaml", (d) => {
        (d.parameter_definitions as Doc[])[0]!.default_value = 8;
      }),
      "catalogue/definitions/aws/require-ec2-imdsv2.yaml: parameter_definitions[0].default_value: 8 is not one of the allowed values 1, 2, 3",
    ],
    [
      "unknown framework clause",
      withEdit(LEAVE, (d) => {
        (d.frameworks as Doc[])[0]!.section = "ZZ-99";
      }),
      `${LEAVE}: frameworks[0].section: ZZ-99 is not a clause of nist-sp-800-53-r5`,
    ],
    [
      "unknown initiative",
      withEdit(LEAVE, (d) => {
        (d.initiative_slugs as string[]).push("hipaa");
      }),
      `${LEAVE}: initiative_slugs[4]: unknown initiative hipaa`,
    ],
    [
      "no allow case",
      withEdit(LEAVE, (d) => {
        d.cases = (d.cases as Doc[]).map((c) => ({ ...c, expect: "deny" }));
      }),
      `${LEAVE}: cases: needs at least one deny case and one allow case`,
    ],
    [
      "plain http further reading",
      withEdit(LEAVE, (d) => {
        (d.further_reading_urls as Doc[])[0]!.href = "http://docs.aws.amazon.com/";
      }),
      `${LEAVE}: further_reading_urls[0].href: must be an https URL`,
    ],
    [
      "reference to a missing definition",
      withEdit(LEAVE, (d) => {
        d.tree = { junction: { operator: "or", nodes: [d.tree, { policy_reference: "nope" }] } };
      }),
      `${LEAVE}: tree.junction.nodes[1].policy_reference: no definition with slug nope`,
    ],
    [
      "reference across enforcers",
      withEdit(LEAVE, (d) => {
        d.tree = { junction: { operator: "or", nodes: [d.tree, { policy_reference: "allowed-locations" }] } };
      }),
      `${LEAVE}: tree.junction.nodes[1].policy_reference: allowed-locations is enforced by azure_policy, not aws_scp`,
    ],
    [
      "reference cycle",
      withEdit(LEAVE, (d) => {
        d.tree = {
          junction: { operator: "or", nodes: [d.tree, { policy_reference: "deny-leave-organization" }] },
        };
      }),
      `${LEAVE}: tree: policy_reference cycle: deny-leave-organization -> deny-leave-organization`,
    ],
    [
      "undeclared Azure alias",
      withEdit(NIC, (d) => {
        const nodes = (d.tree as Doc).junction as Doc;
        (nodes.nodes as Doc[])[0] = {
          atomic: { field: "Microsoft.Network/networkInterfaces/madeUp", equals: true },
        };
      }),
      `${NIC}: tree.junction.nodes[0].atomic.field: alias Microsoft.Network/networkInterfaces/madeUp is not declared`,
    ],
    [
      "Azure condition with two operators",
      withEdit(NIC, (d) => {
        const nodes = (d.tree as Doc).junction as Doc;
        (nodes.nodes as Doc[])[0] = { atomic: { field: "type", equals: "a", notEquals: "b" } };
      }),
      `${NIC}: tree.junction.nodes[0].atomic: a condition needs exactly one operator`,
    ],
    [
      "Azure definition declaring effect",
      withEdit(NIC, (d) => {
        d.parameter_definitions = [
          { name: "effect", display_name: "Effect", description: "x", type: "string", default_value: "Deny" },
        ];
      }),
      `${NIC}: parameter_definitions[0].name: effect is declared by the compiler`,
    ],
    [
      "a parameter the tree never uses",
      withEdit(NIC, (d) => {
        d.parameter_definitions = [
          {
            name: "allowedSubnets",
            display_name: "Subnets",
            description: "x",
            type: "array",
            default_value: [],
          },
        ];
      }),
      `${NIC}: parameter_definitions[0].name: allowedSubnets is declared but the tree never uses it`,
    ],
    [
      "YAML syntax error",
      [...real, { path: "catalogue/definitions/aws/broken.yaml", text: "slug: [unclosed\n" }],
      "catalogue/definitions/aws/broken.yaml: line",
    ],
  ])("rejects %s with the file and field in the message", (_name, files, expected) => {
    expect(errorOf(files)).toContain(expected);
  });

  it("reads files with package-relative paths", () => {
    const file = real.find((f) => f.path === LEAVE)!;
    expect(file.text).toBe(readFileSync(new URL(`../../${LEAVE}`, import.meta.url), "utf8"));
  });
});
