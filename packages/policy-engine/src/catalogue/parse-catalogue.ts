import { parseDocument } from "yaml";
import type { z } from "zod";
import { CONDITION_NAMES } from "../evaluators/azure/condition-operators";
import { type Definition, definitionSchema, type Enforcer, type TreeNode } from "./definition-schema";
import { type AliasFile, aliasFileSchema, type Framework, frameworkSchema } from "./framework-schema";
import { checkAllowedValue, checkParameterValue } from "./parameter-values";

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

type PathPart = string | number;

export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

const DEFINITION_PATH = /(?:^|\/)definitions\/(aws|azure)\/([^/]+)\.ya?ml$/;
const FRAMEWORK_PATH = /(?:^|\/)frameworks\/([^/]+)\.ya?ml$/;
const ALIASES_PATH = /(?:^|\/)azure-aliases\.ya?ml$/;
const FOLDER_ENFORCER: Record<string, Enforcer> = { aws: "aws_scp", azure: "azure_policy" };

export const AWS_PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9_]*)\}\}/g;
export const AZURE_PARAMETER_REFERENCE = /parameters\('([^']+)'\)/g;
export const FEEDBACK_PLACEHOLDERS = ["policy_key", "policy_name", "waiver_link"] as const;

/** Every string (keys included, since IAM condition keys may be templated) inside a value. */
export function collectStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      collectStrings(item, out);
    }
  }
  return out;
}

/** Names of the parameters an atomic node refers to, in the syntax of its enforcer. */
export function referencedParameters(enforcer: Enforcer, atomic: unknown): Set<string> {
  const names = new Set<string>();
  for (const text of collectStrings(atomic)) {
    if (enforcer === "aws_scp") {
      for (const match of text.matchAll(AWS_PLACEHOLDER)) names.add(match[1]!);
    } else if (text.startsWith("[") && !text.startsWith("[[")) {
      for (const match of text.matchAll(AZURE_PARAMETER_REFERENCE)) names.add(match[1]!);
    }
  }
  return names;
}

export interface Issue {
  path: PathPart[];
  message: string;
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

/** Unknown keys are reported at the key itself, so the path points at the line to delete. */
export function describeIssue(issue: z.core.$ZodIssue): Issue {
  if (issue.code === "unrecognized_keys") {
    return {
      path: [...(issue.path as PathPart[]), issue.keys[0]!],
      message: `unknown field (allowed fields are listed in docs/catalogue.md)`,
    };
  }
  return { path: issue.path as PathPart[], message: issue.message };
}

function validate<T>(schema: z.ZodType<T>, file: CatalogueFile, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  fail(file.path, result.error.issues.map(describeIssue));
}

function walkTree(node: TreeNode, path: PathPart[], visit: (node: TreeNode, path: PathPart[]) => void): void {
  visit(node, path);
  if ("junction" in node) {
    node.junction.nodes.forEach((child, index) => {
      walkTree(child, [...path, "junction", "nodes", index], visit);
    });
  }
}

const AZURE_OPERATORS = new Set<string>(CONDITION_NAMES);
const AZURE_LOGICAL = new Set(["allOf", "anyOf", "not"]);
// Fields Azure Policy resolves without an alias.
const AZURE_PLAIN_FIELDS =
  /^(name|fullName|kind|type|location|id|identity\.type|tags|tags\[.+\]|tags\..+|identity\..+)$/;

function checkAzureField(
  field: unknown,
  path: PathPart[],
  aliases: ReadonlySet<string>,
  issues: Issue[],
): void {
  if (typeof field !== "string" || field.length === 0) {
    issues.push({ path, message: "field must be a non-empty string" });
    return;
  }
  if (field.startsWith("[")) return; // an expression, resolved at evaluation time
  if (AZURE_PLAIN_FIELDS.test(field)) return;
  if (!aliases.has(field)) {
    issues.push({ path, message: `alias ${field} is not declared in catalogue/azure-aliases.yaml` });
  }
}

function checkAzureExpression(
  value: unknown,
  path: PathPart[],
  aliases: ReadonlySet<string>,
  issues: Issue[],
  allowLogical: boolean,
): void {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    issues.push({ path, message: "expected an Azure policy condition object" });
    return;
  }
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  const logical = keys.filter((key) => AZURE_LOGICAL.has(key));
  if (logical.length > 0) {
    if (!allowLogical) {
      issues.push({
        path: [...path, logical[0]!],
        message: "an atomic node is one condition; express allOf/anyOf/not with a junction",
      });
      return;
    }
    if (keys.length !== 1) {
      issues.push({ path, message: `${logical[0]} must be the only key of its object` });
      return;
    }
    const operand = record[logical[0]!];
    if (logical[0] === "not") checkAzureExpression(operand, [...path, "not"], aliases, issues, true);
    else if (!Array.isArray(operand) || operand.length === 0) {
      issues.push({ path: [...path, logical[0]!], message: "expected a non-empty list of conditions" });
    } else {
      operand.forEach((item, index) => {
        checkAzureExpression(item, [...path, logical[0]!, index], aliases, issues, true);
      });
    }
    return;
  }
  const operands: string[] = keys.filter((key) => key === "field" || key === "value" || key === "count");
  const operators = keys.filter((key) => AZURE_OPERATORS.has(key));
  const unknown = keys.filter((key) => !operands.includes(key) && !operators.includes(key));
  if (unknown.length > 0) {
    issues.push({
      path: [...path, unknown[0]!],
      message: `unknown key; expected field, value or count and one of ${CONDITION_NAMES.join(", ")}`,
    });
    return;
  }
  if (operands.length !== 1) {
    issues.push({ path, message: "a condition needs exactly one of field, value or count" });
    return;
  }
  if (operators.length !== 1) {
    issues.push({
      path,
      message: `a condition needs exactly one operator (${CONDITION_NAMES.join(", ")})`,
    });
    return;
  }
  if (operands[0] === "field") checkAzureField(record.field, [...path, "field"], aliases, issues);
  if (operands[0] === "count") {
    const count = record.count as Record<string, unknown> | undefined;
    if (!count || typeof count !== "object") {
      issues.push({ path: [...path, "count"], message: "expected an object with field or value" });
      return;
    }
    const countKeys = Object.keys(count);
    const extra = countKeys.filter((key) => !["field", "value", "name", "where"].includes(key));
    if (extra.length > 0)
      issues.push({ path: [...path, "count", extra[0]!], message: "unknown key in count" });
    if ("field" in count === "value" in count) {
      issues.push({ path: [...path, "count"], message: "count needs exactly one of field or value" });
    }
    if ("field" in count) {
      checkAzureField(count.field, [...path, "count", "field"], aliases, issues);
      if (typeof count.field === "string" && !count.field.endsWith("[*]")) {
        issues.push({
          path: [...path, "count", "field"],
          message: "a counted field must be an array alias ending in [*]",
        });
      }
    }
    if ("where" in count)
      checkAzureExpression(count.where, [...path, "count", "where"], aliases, issues, true);
  }
}

function checkJunctions(enforcer: Enforcer, node: TreeNode, path: PathPart[], issues: Issue[]): void {
  if (!("junction" in node) || node.junction.operator !== "not") return;
  if (node.junction.nodes.length !== 1) {
    issues.push({ path: [...path, "junction", "nodes"], message: "a not junction takes exactly one node" });
  } else if (enforcer === "aws_scp" && !("atomic" in node.junction.nodes[0]!)) {
    // Negating a whole IAM statement set has no single-policy form; only conditions can be negated.
    issues.push({
      path: [...path, "junction", "nodes", 0],
      message: "for aws_scp a not junction must wrap an atomic statement",
    });
  }
}

export function definitionIssues(
  definition: Definition,
  frameworks: ReadonlyMap<string, Framework>,
  aliasNames: ReadonlySet<string>,
  options: { requireCases: boolean } = { requireCases: true },
): Issue[] {
  const issues: Issue[] = [];
  const parameters = new Map(definition.parameter_definitions.map((p) => [p.name, p]));

  definition.parameter_definitions.forEach((parameter, index) => {
    if (definition.parameter_definitions.findIndex((p) => p.name === parameter.name) !== index) {
      issues.push({
        path: ["parameter_definitions", index, "name"],
        message: `duplicate parameter ${parameter.name}`,
      });
    }
    if (definition.enforcer === "azure_policy" && parameter.name === "effect") {
      issues.push({
        path: ["parameter_definitions", index, "name"],
        message: "effect is declared by the compiler (Deny, Audit, Disabled); do not declare it",
      });
    }
    parameter.allowed_values.forEach((allowed, valueIndex) => {
      const problem = checkAllowedValue(parameter, allowed);
      if (problem)
        issues.push({
          path: ["parameter_definitions", index, "allowed_values", valueIndex],
          message: problem,
        });
    });
    if (parameter.default_value !== undefined) {
      const problem = checkParameterValue(parameter, parameter.default_value);
      if (problem) issues.push({ path: ["parameter_definitions", index, "default_value"], message: problem });
    }
  });

  walkTree(definition.tree, ["tree"], (node, path) => {
    checkJunctions(definition.enforcer, node, path, issues);
    if (!("atomic" in node)) return;
    for (const name of referencedParameters(definition.enforcer, node.atomic)) {
      if (!parameters.has(name)) {
        issues.push({ path: [...path, "atomic"], message: `refers to undeclared parameter ${name}` });
      }
    }
    if (definition.enforcer === "azure_policy") {
      checkAzureExpression(node.atomic, [...path, "atomic"], aliasNames, issues, false);
    }
  });

  for (const match of definition.feedback_message_template.matchAll(/\{\{([^}]*)\}\}/g)) {
    if (!(FEEDBACK_PLACEHOLDERS as readonly string[]).includes(match[1]!)) {
      issues.push({
        path: ["feedback_message_template"],
        message: `unknown placeholder {{${match[1]}}}; use ${FEEDBACK_PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")}`,
      });
    }
  }
  if (!definition.feedback_message_template.includes("{{policy_key}}")) {
    issues.push({
      path: ["feedback_message_template"],
      message: "must contain {{policy_key}} so a denied user can ask for a waiver",
    });
  }

  if (!definition.affected_resource_types.includes(definition.main_resource_type)) {
    issues.push({ path: ["main_resource_type"], message: "must be one of affected_resource_types" });
  }

  const providerKeys = Object.keys(definition.provider_data);
  if (providerKeys.some((key) => key !== definition.enforcer)) {
    issues.push({
      path: ["provider_data"],
      message: `only ${definition.enforcer} data belongs to this definition`,
    });
  }

  definition.frameworks.forEach((reference, index) => {
    const framework = frameworks.get(reference.name);
    if (!framework) {
      issues.push({
        path: ["frameworks", index, "name"],
        message: `unknown framework ${reference.name}; expected one of ${[...frameworks.keys()].join(", ")}`,
      });
    } else if (!framework.clauses.some((clause) => clause.id === reference.section)) {
      issues.push({
        path: ["frameworks", index, "section"],
        message: `${reference.section} is not a clause of ${reference.name}`,
      });
    } else if (!definition.initiative_slugs.includes(reference.name)) {
      issues.push({
        path: ["initiative_slugs"],
        message: `must include ${reference.name}, which frameworks maps to`,
      });
    }
  });
  definition.initiative_slugs.forEach((slug, index) => {
    if (!frameworks.has(slug))
      issues.push({ path: ["initiative_slugs", index], message: `unknown initiative ${slug}` });
  });

  const expectations = new Set(definition.cases.map((c) => c.expect));
  if (options.requireCases && (!expectations.has("deny") || !expectations.has("allow"))) {
    issues.push({ path: ["cases"], message: "needs at least one deny case and one allow case" });
  }
  definition.cases.forEach((testCase, index) => {
    for (const name of Object.keys(testCase.parameters ?? {})) {
      if (!parameters.has(name))
        issues.push({ path: ["cases", index, "parameters", name], message: "undeclared parameter" });
    }
  });
  return issues;
}

export function referenceIssues(definition: Definition, bySlug: ReadonlyMap<string, Definition>): Issue[] {
  const issues: Issue[] = [];
  walkTree(definition.tree, ["tree"], (node, path) => {
    if (!("policy_reference" in node)) return;
    const target = bySlug.get(node.policy_reference);
    if (!target) {
      issues.push({
        path: [...path, "policy_reference"],
        message: `no definition with slug ${node.policy_reference}`,
      });
      return;
    }
    if (target.enforcer !== definition.enforcer) {
      issues.push({
        path: [...path, "policy_reference"],
        message: `${node.policy_reference} is enforced by ${target.enforcer}, not ${definition.enforcer}`,
      });
      return;
    }
    // The bundle only carries the referring definition's parameters, so the inlined tree must use
    // parameters that definition declares with the same type.
    walkTree(target.tree, [], (inner) => {
      if (!("atomic" in inner)) return;
      for (const name of referencedParameters(target.enforcer, inner.atomic)) {
        const own = definition.parameter_definitions.find((p) => p.name === name);
        const theirs = target.parameter_definitions.find((p) => p.name === name);
        if (!own || own.type !== theirs?.type) {
          issues.push({
            path: [...path, "policy_reference"],
            message: `${node.policy_reference} uses parameter ${name}; declare it here with type ${theirs?.type}`,
          });
        }
      }
    });
  });
  return issues;
}

/** Parameters used anywhere in the tree, following references (each definition visited once). */
function usedParameters(definition: Definition, bySlug: ReadonlyMap<string, Definition>): Set<string> {
  const used = new Set<string>();
  const seen = new Set<string>();
  const visit = (current: Definition) => {
    if (seen.has(current.slug)) return;
    seen.add(current.slug);
    walkTree(current.tree, [], (node) => {
      if ("atomic" in node)
        for (const name of referencedParameters(current.enforcer, node.atomic)) used.add(name);
      else if ("policy_reference" in node) {
        const target = bySlug.get(node.policy_reference);
        if (target) visit(target);
      }
    });
  };
  visit(definition);
  return used;
}

export function unusedParameterIssues(
  definition: Definition,
  bySlug: ReadonlyMap<string, Definition>,
): Issue[] {
  const used = usedParameters(definition, bySlug);
  return definition.parameter_definitions.flatMap((parameter, index) =>
    used.has(parameter.name)
      ? []
      : [
          {
            path: ["parameter_definitions", index, "name"],
            message: `${parameter.name} is declared but the tree never uses it`,
          },
        ],
  );
}

export function findCycle(start: Definition, bySlug: ReadonlyMap<string, Definition>): string[] | undefined {
  const stack: string[] = [];
  const visit = (definition: Definition): string[] | undefined => {
    if (stack.includes(definition.slug))
      return [...stack.slice(stack.indexOf(definition.slug)), definition.slug];
    stack.push(definition.slug);
    const refs: string[] = [];
    walkTree(definition.tree, [], (node) => {
      if ("policy_reference" in node) refs.push(node.policy_reference);
    });
    for (const ref of refs) {
      const target = bySlug.get(ref);
      if (!target) continue;
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    stack.pop();
    return undefined;
  };
  return visit(start);
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
