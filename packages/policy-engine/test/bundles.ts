import type {
  AwsDefinition,
  AwsTreeNode,
  AzureDefinition,
  ParameterDefinition,
} from "../src/catalogue/definition-schema";
import { type Catalogue, type CatalogueFile, parseCatalogue } from "../src/catalogue/parse-catalogue";
import { readCatalogueFiles } from "../src/catalogue/read-catalogue-files";
import type { CompileBundleInput } from "../src/compilers/compile-input";

/** The definitions written alongside the catalogue format; tests pin to them so catalogue growth cannot change their expectations. */
export const EXAMPLE_SLUGS = [
  "deny-leave-organization",
  "deny-regions-outside-allowlist",
  "require-ec2-imdsv2",
  "allowed-locations",
  "storage-accounts-https-only",
  "deny-nic-public-ip",
];

/** Frameworks, aliases and the example definitions, as read from disk. */
export const exampleFiles: CatalogueFile[] = readCatalogueFiles().filter((file) => {
  const definition = /definitions\/(aws|azure)\/([^/]+)\.yaml$/.exec(file.path);
  return !definition || EXAMPLE_SLUGS.includes(definition[2]!);
});

export const catalogue: Catalogue = parseCatalogue(exampleFiles);
export const KEY = "7KQ2M9X";
export const NOW = new Date("2026-03-01T08:00:00Z");

export function awsDefinition(slug: string): AwsDefinition {
  return catalogue.bySlug.get(slug) as AwsDefinition;
}

export function azureDefinition(slug: string): AzureDefinition {
  return catalogue.bySlug.get(slug) as AzureDefinition;
}

/** A throwaway aws_scp definition around a tree, for exercising the compiler's tree semantics. */
export function syntheticAws(
  tree: AwsTreeNode,
  parameterDefinitions: ParameterDefinition[] = [],
): AwsDefinition {
  return {
    ...awsDefinition("deny-leave-organization"),
    slug: "synthetic",
    tree,
    parameter_definitions: parameterDefinitions,
  };
}

export function bundle(
  overrides: Partial<CompileBundleInput> & Pick<CompileBundleInput, "definition">,
): CompileBundleInput {
  return {
    parameters: {},
    mode: "PREVENT",
    key: KEY,
    name: "Platform guardrails",
    scopes: [{ id: "r-ab12" }],
    excludedScopes: [],
    waivers: [],
    waiverLinkBaseUrl: "https://palisade.example.com/",
    now: NOW,
    definitions: catalogue.bySlug,
    ...overrides,
  };
}
