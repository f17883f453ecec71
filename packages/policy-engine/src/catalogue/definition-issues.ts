import { checkAzureExpression } from "./azure-condition-issues";
import type { Issue, PathPart } from "./catalogue-issue";
import type { Definition, Enforcer, TreeNode } from "./definition-schema";
import { referencedParameters, treeOf, walkTree } from "./definition-tree";
import type { Framework } from "./framework-schema";
import { checkAllowedValue, checkParameterValue } from "./parameter-values";

export const FEEDBACK_PLACEHOLDERS = ["policy_key", "policy_name", "waiver_link"] as const;

function checkJunctions(enforcer: Enforcer, node: TreeNode, path: PathPart[], issues: Issue[]): void {
  if (!("junction" in node) || node.junction.operator !== "not") return;
  if (node.junction.nodes.length !== 1) {
    issues.push({ path: [...path, "junction", "nodes"], message: "a not junction takes exactly one node" });
  } else if ((enforcer === "aws_scp" || enforcer === "aws_rcp") && !("atomic" in node.junction.nodes[0]!)) {
    // Negating a whole IAM statement set has no single-policy form; only conditions can be negated.
    issues.push({
      path: [...path, "junction", "nodes", 0],
      message: `for ${enforcer} a not junction must wrap an atomic statement`,
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

  walkTree(treeOf(definition), ["tree"], (node, path) => {
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
