import type {
  AwsTreeNode,
  AzureTreeNode,
  Definition,
  IamStatementTemplate,
  ParameterDefinition,
} from "../catalogue/definition-schema";
import { treeOf } from "../catalogue/definition-tree";
import { checkParameterValue } from "../catalogue/parameter-values";
import { CompileError } from "./compile-input";

export interface ParameterError {
  /** `parameters.<name>` so forms can attach the message to the right field. */
  field: string;
  message: string;
}

/**
 * Field-level problems with a bundle's parameters: unknown names, missing values without a
 * default, and values that do not match the parameter's type, target type or allowed values.
 */
export function validateBundleParameters(
  definition: Definition,
  parameters: Record<string, unknown>,
): ParameterError[] {
  const errors: ParameterError[] = [];
  const declared = new Map(definition.parameter_definitions.map((p) => [p.name, p]));
  for (const name of Object.keys(parameters)) {
    if (!declared.has(name))
      errors.push({ field: `parameters.${name}`, message: `${definition.slug} has no parameter ${name}` });
  }
  for (const parameter of definition.parameter_definitions) {
    const value = parameters[parameter.name] ?? parameter.default_value;
    if (value === undefined) {
      errors.push({
        field: `parameters.${parameter.name}`,
        message: `${parameter.display_name} is required`,
      });
      continue;
    }
    const problem = checkParameterValue(parameter, value);
    if (problem)
      errors.push({
        field: `parameters.${parameter.name}`,
        message: `${parameter.display_name}: ${problem}`,
      });
  }
  return errors;
}

/** Bundle parameters merged over the definition's defaults; throws when they are not valid. */
export function resolveBundleParameters(
  definition: Definition,
  parameters: Record<string, unknown>,
): Record<string, unknown> {
  const errors = validateBundleParameters(definition, parameters);
  if (errors.length > 0) {
    throw new CompileError("INVALID_PARAMETERS", errors.map((e) => `${e.field}: ${e.message}`).join("; "));
  }
  const values: Record<string, unknown> = {};
  for (const parameter of definition.parameter_definitions) {
    values[parameter.name] = parameters[parameter.name] ?? parameter.default_value;
  }
  return values;
}

export type InlinedAwsNode =
  | { atomic: IamStatementTemplate }
  | { junction: { operator: "and" | "or" | "not"; nodes: InlinedAwsNode[] } };
export type InlinedAzureNode =
  | { atomic: Record<string, unknown> }
  | { junction: { operator: "and" | "or" | "not"; nodes: InlinedAzureNode[] } };

type AnyNode = AwsTreeNode | AzureTreeNode;
type AnyInlined = InlinedAwsNode | InlinedAzureNode;

function inline(
  node: AnyNode,
  enforcer: Definition["enforcer"],
  definitions: ReadonlyMap<string, Definition> | undefined,
  chain: string[],
): AnyInlined {
  if ("atomic" in node) return node as AnyInlined;
  if ("junction" in node) {
    return {
      junction: {
        operator: node.junction.operator,
        nodes: (node.junction.nodes as AnyNode[]).map((child) => inline(child, enforcer, definitions, chain)),
      },
    } as AnyInlined;
  }
  const slug = node.policy_reference;
  if (chain.includes(slug)) {
    throw new CompileError("INVALID_TREE", `policy_reference cycle: ${[...chain, slug].join(" -> ")}`);
  }
  const target = definitions?.get(slug);
  if (!target) throw new CompileError("INVALID_TREE", `policy_reference ${slug} is not in the catalogue`);
  if (target.enforcer !== enforcer) {
    throw new CompileError(
      "INVALID_TREE",
      `policy_reference ${slug} is enforced by ${target.enforcer}, not ${enforcer}`,
    );
  }
  return inline(treeOf(target), enforcer, definitions, [...chain, slug]);
}

/** The definition's tree with every policy_reference replaced by the referenced tree. */
export function inlineAwsTree(
  definition: Definition & { enforcer: "aws_scp" | "aws_rcp" },
  definitions?: ReadonlyMap<string, Definition>,
): InlinedAwsNode {
  return inline(definition.tree, definition.enforcer, definitions, [definition.slug]) as InlinedAwsNode;
}

export function inlineAzureTree(
  definition: Definition & { enforcer: "azure_policy" },
  definitions?: ReadonlyMap<string, Definition>,
): InlinedAzureNode {
  return inline(definition.tree, "azure_policy", definitions, [definition.slug]) as InlinedAzureNode;
}

const WHOLE_PLACEHOLDER = /^\{\{([A-Za-z][A-Za-z0-9_]*)\}\}$/;
const ANY_PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9_]*)\}\}/g;

function scalarText(name: string, value: unknown, where: string): string {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  throw new CompileError(
    "INVALID_PARAMETERS",
    `parameter ${name} is not a single value and cannot be used inside "${where}"`,
  );
}

function lookup(
  name: string,
  values: Record<string, unknown>,
  declared: Map<string, ParameterDefinition>,
): unknown {
  if (!declared.has(name) || values[name] === undefined) {
    throw new CompileError("INVALID_PARAMETERS", `placeholder {{${name}}} has no parameter value`);
  }
  return values[name];
}

function substituteString(
  text: string,
  values: Record<string, unknown>,
  declared: Map<string, ParameterDefinition>,
): string | string[] {
  const whole = WHOLE_PLACEHOLDER.exec(text);
  if (whole) {
    const value = lookup(whole[1]!, values, declared);
    if (Array.isArray(value)) {
      if (value.length === 0)
        throw new CompileError("INVALID_PARAMETERS", `parameter ${whole[1]} must not be empty`);
      return value.map((item) => scalarText(whole[1]!, item, text));
    }
    return scalarText(whole[1]!, value, text);
  }
  return text.replace(ANY_PLACEHOLDER, (_match, name: string) =>
    scalarText(name, lookup(name, values, declared), text),
  );
}

/**
 * Substitutes `{{name}}` placeholders in an IAM statement template. A placeholder that is a whole
 * string takes the parameter's value (arrays become lists, spliced into surrounding lists);
 * numbers and booleans become strings as IAM condition values are; placeholders inside longer
 * strings (and in condition keys) need single values.
 */
export function substituteAwsPlaceholders<T>(
  template: T,
  values: Record<string, unknown>,
  parameterDefinitions: ParameterDefinition[],
): T {
  const declared = new Map(parameterDefinitions.map((p) => [p.name, p]));
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return substituteString(value, values, declared);
    if (Array.isArray(value)) {
      return value.flatMap((item) => {
        const substituted = walk(item);
        return Array.isArray(substituted) && typeof item === "string" ? substituted : [substituted];
      });
    }
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const newKey = key.replace(ANY_PLACEHOLDER, (_m, name: string) =>
          scalarText(name, lookup(name, values, declared), key),
        );
        out[newKey] = walk(item);
      }
      return out;
    }
    return value;
  };
  return walk(template) as T;
}
