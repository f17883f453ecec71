import { parseDocument } from "yaml";
import type { z } from "zod";
import { describeIssue, formatFieldPath, type Issue } from "./catalogue-issue";
import { definitionIssues } from "./definition-issues";
import { type Definition, definitionSchema, type Enforcer } from "./definition-schema";
import { type AliasFile, aliasFileSchema, type Framework, frameworkSchema } from "./framework-schema";
import { findCycle, referenceIssues, unusedParameterIssues } from "./reference-issues";

export interface CatalogueFile {
  path: string;
  text: string;
}

export interface Catalogue {
  definitions: Definition[];
  bySlug: ReadonlyMap<string, Definition>;
  frameworks: Framework[];
  aliases: AliasFile;
}

export class CatalogueError extends Error {
  override name = "CatalogueError";
  constructor(
    readonly file: string,
    readonly fieldPath: string,
    readonly detail: string,
    readonly others: string[] = [],
  ) {
    super([`${file}: ${fieldPath ? `${fieldPath}: ` : ""}${detail}`, ...others].join("\n"));
  }
}

const DEFINITION_PATH = /(?:^|\/)definitions\/(aws|aws-rcp|aws-declarative-ec2|azure)\/([^/]+)\.ya?ml$/;
const FRAMEWORK_PATH = /(?:^|\/)frameworks\/([^/]+)\.ya?ml$/;
const ALIASES_PATH = /(?:^|\/)azure-aliases\.ya?ml$/;
/** Each enforcer's definitions live in their own folder of `catalogue/definitions/`. */
const FOLDER_ENFORCER: Record<string, Enforcer> = {
  aws: "aws_scp",
  "aws-rcp": "aws_rcp",
  "aws-declarative-ec2": "aws_declarative_ec2",
  azure: "azure_policy",
};

/** The folder of `catalogue/definitions/` that holds an enforcer's definitions. */
export function folderOfEnforcer(enforcer: Enforcer): string {
  return Object.entries(FOLDER_ENFORCER).find(([, of]) => of === enforcer)?.[0] ?? enforcer;
}

function parseYaml(file: CatalogueFile): unknown {
  const document = parseDocument(file.text, { prettyErrors: true, uniqueKeys: true });
  const [first, ...rest] = document.errors;
  if (first) {
    const line = first.linePos?.[0];
    throw new CatalogueError(
      file.path,
      line ? `line ${line.line}` : "",
      first.message.split("\n")[0] ?? first.message,
      rest.map((e) => `${file.path}: ${e.message.split("\n")[0]}`),
    );
  }
  return document.toJS();
}

function validate<T>(schema: z.ZodType<T>, file: CatalogueFile, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  fail(file.path, result.error.issues.map(describeIssue));
}

function fail(path: string, issues: Issue[]): never {
  const [first, ...rest] = issues;
  throw new CatalogueError(
    path,
    formatFieldPath(first!.path),
    first!.message,
    rest.map((issue) => `${path}: ${formatFieldPath(issue.path)}: ${issue.message}`),
  );
}

/**
 * Parses and validates the whole catalogue. Throws a CatalogueError naming the file and the field
 * at fault; nothing partially valid is returned, because bundles are compiled from this data.
 */
export function parseCatalogue(files: CatalogueFile[]): Catalogue {
  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path));

  let aliases: AliasFile = {};
  const aliasFile = sorted.find((file) => ALIASES_PATH.test(file.path));
  if (aliasFile) {
    aliases = validate(aliasFileSchema, aliasFile, parseYaml(aliasFile) ?? {});
    for (const [resourceType, entries] of Object.entries(aliases)) {
      for (const alias of Object.keys(entries)) {
        if (!alias.toLowerCase().startsWith(`${resourceType.toLowerCase()}/`)) {
          throw new CatalogueError(
            aliasFile.path,
            `${resourceType}.${alias}`,
            `alias must start with ${resourceType}/`,
          );
        }
      }
    }
  }
  const aliasNames = new Set(Object.values(aliases).flatMap((entries) => Object.keys(entries)));

  const frameworks = new Map<string, Framework>();
  for (const file of sorted) {
    const match = FRAMEWORK_PATH.exec(file.path);
    if (!match) continue;
    const framework = validate(frameworkSchema, file, parseYaml(file));
    if (framework.id !== match[1])
      throw new CatalogueError(file.path, "id", `must equal the file name (${match[1]})`);
    const seen = new Set<string>();
    framework.clauses.forEach((clause, index) => {
      if (seen.has(clause.id))
        throw new CatalogueError(file.path, `clauses[${index}].id`, `duplicate clause ${clause.id}`);
      seen.add(clause.id);
    });
    frameworks.set(framework.id, framework);
  }

  const bySlug = new Map<string, Definition>();
  const pathOf = new Map<string, string>();
  for (const file of sorted) {
    const match = DEFINITION_PATH.exec(file.path);
    if (!match) continue;
    const [, folder, fileSlug] = match;
    const definition = validate(definitionSchema, file, parseYaml(file));
    if (definition.slug !== fileSlug) {
      throw new CatalogueError(file.path, "slug", `must equal the file name (${fileSlug})`);
    }
    if (definition.enforcer !== FOLDER_ENFORCER[folder!]) {
      throw new CatalogueError(
        file.path,
        "enforcer",
        `definitions under ${folder}/ must use ${FOLDER_ENFORCER[folder!]}`,
      );
    }
    const previous = pathOf.get(definition.slug);
    if (previous)
      throw new CatalogueError(file.path, "slug", `${definition.slug} is already defined in ${previous}`);
    const issues = definitionIssues(definition, frameworks, aliasNames);
    if (issues.length > 0) fail(file.path, issues);
    bySlug.set(definition.slug, definition);
    pathOf.set(definition.slug, file.path);
  }

  for (const definition of bySlug.values()) {
    const path = pathOf.get(definition.slug)!;
    const issues = [...referenceIssues(definition, bySlug), ...unusedParameterIssues(definition, bySlug)];
    if (issues.length > 0) fail(path, issues);
    const cycle = findCycle(definition, bySlug);
    if (cycle) throw new CatalogueError(path, "tree", `policy_reference cycle: ${cycle.join(" -> ")}`);
  }

  return { definitions: [...bySlug.values()], bySlug, frameworks: [...frameworks.values()], aliases };
}
