import type { AliasTable } from "./alias-table";
import type { AzureResource } from "./azure-resource";
import { type ConditionName, conditionNameOf, testCondition } from "./condition-operators";
import {
  type Context,
  type CountScope,
  createContext,
  type FieldResolver,
  type FieldValue,
  fieldResolver,
  isRecord,
  resolvePath,
  single,
} from "./rule-context";
import { isTemplateExpression, PolicyEvaluationError, resolveTemplateValue } from "./template-expression";

/** applies is true when `if` matched; effect is `then.effect` resolved through the parameters. */
export interface RuleResult {
  applies: boolean;
  effect?: string;
  failingCondition?: unknown;
}

/**
 * The condition that made `if` true: its path in the rule (e.g. `if.allOf[1]`) and its JSON. For
 * allOf that is the last member, for anyOf the first member that held, for not the not itself.
 * When a template function failed, Azure treats the evaluation as non-compliant; error says why.
 */
export interface FailingCondition {
  path: string;
  condition: unknown;
  error?: string;
}

interface CompiledNode {
  test(context: Context): boolean;
  /** Only called when test() was true. */
  explain(context: Context): FailingCondition;
}

class ConditionError extends PolicyEvaluationError {
  constructor(
    message: string,
    readonly path: string,
    readonly condition: unknown,
  ) {
    super(message);
  }
}

function compileField(raw: unknown, path: string): FieldResolver {
  if (typeof raw !== "string") throw new Error(`Invalid policy rule at ${path}: field must be a string`);
  if (!isTemplateExpression(raw)) return fieldResolver(raw);
  return (context) => {
    const name = resolveTemplateValue(raw, context.scope);
    if (typeof name !== "string") throw new PolicyEvaluationError(`field expression ${raw} is not a string`);
    return fieldResolver(name)(context);
  };
}

function compileValue(raw: unknown): (context: Context) => unknown {
  if (typeof raw === "string" && raw.startsWith("["))
    return (context) => resolveTemplateValue(raw, context.scope);
  return () => raw;
}

function compileCount(raw: unknown, path: string): (context: Context) => number {
  if (!isRecord(raw)) throw new Error(`Invalid policy rule at ${path}: count must be an object`);
  const where = raw.where === undefined ? undefined : compileNode(raw.where, `${path}.where`);
  const countWhere = (members: unknown[], scopeOf: (member: unknown) => CountScope, context: Context) => {
    if (!where) return members.length;
    let count = 0;
    for (const member of members) {
      context.counts.push(scopeOf(member));
      try {
        if (where.test(context)) count++;
      } finally {
        context.counts.pop();
      }
    }
    return count;
  };
  if (raw.field !== undefined) {
    if (typeof raw.field !== "string")
      throw new Error(`Invalid policy rule at ${path}: count.field must be a string`);
    const lowered = raw.field.toLowerCase();
    if (!lowered.endsWith("[*]")) {
      throw new Error(`Invalid policy rule at ${path}: count.field must be an array alias ending in [*]`);
    }
    return (context) => {
      const arrayPath = context.aliases?.get(lowered);
      if (!arrayPath) return 0;
      const members = resolvePath(arrayPath, context);
      const list = members.multi ? members.values : [];
      return countWhere(list, (member) => ({ kind: "field", path: arrayPath, member }), context);
    };
  }
  if (raw.value !== undefined) {
    const value = compileValue(raw.value);
    const name = typeof raw.name === "string" ? raw.name.toLowerCase() : undefined;
    return (context) => {
      const members = value(context);
      if (!Array.isArray(members)) throw new PolicyEvaluationError("count.value must evaluate to an array");
      return countWhere(members, (member) => ({ kind: "value", name, member }), context);
    };
  }
  throw new Error(`Invalid policy rule at ${path}: count needs field or value`);
}

function compileCondition(raw: Record<string, unknown>, path: string): CompiledNode {
  let conditionName: ConditionName | undefined;
  let expectedRaw: unknown;
  for (const [key, value] of Object.entries(raw)) {
    const name = conditionNameOf(key);
    if (!name) continue;
    if (conditionName) throw new Error(`Invalid policy rule at ${path}: more than one condition`);
    conditionName = name;
    expectedRaw = value;
  }
  if (!conditionName) throw new Error(`Invalid policy rule at ${path}: no condition`);
  const operator = conditionName;
  const expected = compileValue(expectedRaw);

  let operand: (context: Context) => FieldValue;
  if ("field" in raw) operand = compileField(raw.field, path);
  else if ("value" in raw) {
    const value = compileValue(raw.value);
    operand = (context) => single(value(context));
  } else if ("count" in raw) {
    const count = compileCount(raw.count, `${path}.count`);
    operand = (context) => single(count(context));
  } else throw new Error(`Invalid policy rule at ${path}: a condition needs field, value or count`);

  return {
    test(context) {
      try {
        const actual = operand(context);
        const wanted = expected(context);
        // A condition on a [*] alias holds only if it holds for every array member.
        if (actual.multi) return actual.values.every((member) => testCondition(operator, member, wanted));
        return testCondition(operator, actual.value, wanted);
      } catch (error) {
        if (error instanceof ConditionError || !(error instanceof PolicyEvaluationError)) throw error;
        throw new ConditionError(error.message, path, raw);
      }
    },
    explain: () => ({ path, condition: raw }),
  };
}

function compileNode(raw: unknown, path: string): CompiledNode {
  if (!isRecord(raw)) throw new Error(`Invalid policy rule at ${path}: expected an object`);
  if ("allOf" in raw || "anyOf" in raw) {
    const all = "allOf" in raw;
    const list = all ? raw.allOf : raw.anyOf;
    if (!Array.isArray(list))
      throw new Error(`Invalid policy rule at ${path}: ${all ? "allOf" : "anyOf"} must be an array`);
    const children = list.map((child, i) => compileNode(child, `${path}.${all ? "allOf" : "anyOf"}[${i}]`));
    if (all) {
      return {
        test: (context) => children.every((child) => child.test(context)),
        explain: (context) => children[children.length - 1]?.explain(context) ?? { path, condition: raw },
      };
    }
    return {
      test: (context) => children.some((child) => child.test(context)),
      explain: (context) => children.find((child) => child.test(context))!.explain(context),
    };
  }
  if ("not" in raw) {
    const inner = compileNode(raw.not, `${path}.not`);
    return { test: (context) => !inner.test(context), explain: () => ({ path, condition: raw }) };
  }
  return compileCondition(raw, path);
}

interface CompiledRule {
  condition: CompiledNode;
  effect: unknown;
}

const compiledRules = new WeakMap<object, CompiledRule>();

function compileRule(policyRule: unknown): CompiledRule {
  if (!isRecord(policyRule)) throw new Error("Invalid policy rule: expected an object with if and then");
  let compiled = compiledRules.get(policyRule);
  if (!compiled) {
    const then = policyRule.then;
    if (!isRecord(then) || then.effect === undefined)
      throw new Error("Invalid policy rule: then.effect is missing");
    compiled = { condition: compileNode(policyRule.if, "if"), effect: then.effect };
    compiledRules.set(policyRule, compiled);
  }
  return compiled;
}

/** Evaluates a policy rule's `if` against a resource, the way Azure Policy does on create/update. */
export function evaluatePolicyRule(
  policyRule: unknown,
  resource: AzureResource,
  parameters: Record<string, unknown>,
  aliases: AliasTable,
): RuleResult {
  const rule = compileRule(policyRule);
  const context = createContext(resource, parameters, aliases);
  const effectValue = resolveTemplateValue(rule.effect, context.scope);
  const effect = typeof effectValue === "string" ? effectValue : String(effectValue);
  try {
    if (!rule.condition.test(context)) return { applies: false, effect };
    return { applies: true, effect, failingCondition: rule.condition.explain(context) };
  } catch (error) {
    if (!(error instanceof PolicyEvaluationError)) throw error;
    const failingCondition: FailingCondition =
      error instanceof ConditionError
        ? { path: error.path, condition: error.condition, error: error.message }
        : { path: "if", condition: (policyRule as Record<string, unknown>).if, error: error.message };
    return { applies: true, effect, failingCondition };
  }
}
