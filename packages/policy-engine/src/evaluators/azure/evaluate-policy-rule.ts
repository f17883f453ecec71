import { type AliasTable, indexAliasTable, type PropertyPath, parsePropertyPath } from "./alias-table";
import { type ConditionName, conditionNameOf, testCondition } from "./condition-operators";
import {
  type ExpressionScope,
  isTemplateExpression,
  PolicyEvaluationError,
  resolveTemplateValue,
} from "./template-expression";

export interface AzureResource {
  id: string;
  type: string;
  name: string;
  location?: string;
  kind?: string;
  tags?: Record<string, string>;
  sku?: Record<string, unknown>;
  properties?: Record<string, unknown>;
}

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

type FieldValue = { multi: false; value: unknown } | { multi: true; values: unknown[] };

type CountScope =
  | { kind: "field"; path: PropertyPath; member: unknown }
  | { kind: "value"; name: string | undefined; member: unknown };

interface Context {
  resource: AzureResource;
  parameters: ReadonlyMap<string, unknown>;
  aliases: ReadonlyMap<string, PropertyPath> | undefined;
  counts: CountScope[];
  scope: ExpressionScope;
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function property(target: unknown, name: string): unknown {
  if (!isRecord(target)) return undefined;
  if (name in target) return target[name];
  const lowered = name.toLowerCase();
  for (const key of Object.keys(target)) if (key.toLowerCase() === lowered) return target[key];
  return undefined;
}

/**
 * A `[*]` alias always selects a collection, even when read from the one member a count is
 * visiting: there it is a collection of one value.
 */
function walk(start: unknown, path: PropertyPath, from: number): FieldValue {
  let current: unknown[] = [start];
  for (let i = from; i < path.segments.length; i++) {
    const segment = path.segments[i]!;
    const next: unknown[] = [];
    for (const value of current) {
      const child = property(value, segment.name);
      if (!segment.each) next.push(child);
      else if (Array.isArray(child)) next.push(...child);
    }
    current = next;
  }
  return path.collection ? { multi: true, values: current } : { multi: false, value: current[0] };
}

function insidePath(inner: PropertyPath, outer: PropertyPath): boolean {
  return inner.key === outer.key || inner.key.startsWith(`${outer.key}.`);
}

/** Inside a field count, properties under the counted array are read from the current member. */
function resolvePath(path: PropertyPath, context: Context): FieldValue {
  for (let i = context.counts.length - 1; i >= 0; i--) {
    const scope = context.counts[i]!;
    if (scope.kind === "field" && insidePath(path, scope.path)) {
      return walk(scope.member, path, scope.path.segments.length);
    }
  }
  return walk(context.resource, path, 0);
}

/** `fullName` of a child resource is its parents' names and its own joined by "/". */
function fullNameOf(resource: AzureResource): string {
  const marker = resource.id.toLowerCase().lastIndexOf("/providers/");
  if (marker === -1) return resource.name;
  const parts = resource.id
    .slice(marker + "/providers/".length)
    .split("/")
    .slice(1);
  const names = parts.filter((_, i) => i % 2 === 1);
  return names.length > 0 ? names.join("/") : resource.name;
}

const TAG_FIELD = /^tags(?:\.(.+)|\['(.+)'\]|\[([^'\]]+)\])$/i;

type FieldResolver = (context: Context) => FieldValue;

const single = (value: unknown): FieldValue => ({ multi: false, value });

function compileFieldName(name: string): FieldResolver {
  const lowered = name.toLowerCase();
  switch (lowered) {
    case "type":
      return (context) => single(context.resource.type);
    case "name":
      return (context) => single(context.resource.name);
    case "fullname":
      return (context) => single(fullNameOf(context.resource));
    case "location":
      // Azure normalizes locations, so "East US 2" is the same as "eastus2".
      return (context) => single(context.resource.location?.replace(/\s+/g, ""));
    case "kind":
      return (context) => single(context.resource.kind);
    case "id":
      return (context) => single(context.resource.id);
    case "tags":
      return (context) => single(context.resource.tags);
  }
  const tag = TAG_FIELD.exec(name);
  if (tag) {
    const tagName = (tag[1] ?? tag[2] ?? tag[3])!.replaceAll("''", "'");
    return (context) => single(property(context.resource.tags, tagName));
  }
  if (!name.includes("/")) {
    // Top-level resource properties Azure exposes without an alias, such as identity.type.
    const path = parsePropertyPath(name);
    return (context) => walk(context.resource, path, 0);
  }
  return (context) => {
    const path = context.aliases?.get(lowered);
    return path ? resolvePath(path, context) : single(undefined);
  };
}

const fieldResolvers = new Map<string, FieldResolver>();

function fieldResolver(name: string): FieldResolver {
  let resolver = fieldResolvers.get(name);
  if (!resolver) {
    resolver = compileFieldName(name);
    if (fieldResolvers.size > 4096) fieldResolvers.clear();
    fieldResolvers.set(name, resolver);
  }
  return resolver;
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

function parameterMap(parameters: Record<string, unknown>): ReadonlyMap<string, unknown> {
  return new Map(Object.entries(parameters).map(([name, value]) => [name.toLowerCase(), value]));
}

function createContext(
  resource: AzureResource,
  parameters: Record<string, unknown>,
  aliases: AliasTable,
): Context {
  const context: Context = {
    resource,
    parameters: parameterMap(parameters),
    aliases: indexAliasTable(aliases).get(resource.type.toLowerCase()),
    counts: [],
    scope: {
      parameter(name) {
        const lowered = name.toLowerCase();
        if (!context.parameters.has(lowered))
          throw new PolicyEvaluationError(`The parameter '${name}' has no value`);
        return context.parameters.get(lowered);
      },
      field(name) {
        // Per "Author policies for array properties": field() of a [*] alias is an array of the
        // selected values, and of a missing property an empty string.
        const value = fieldResolver(name)(context);
        return value.multi ? value.values : (value.value ?? "");
      },
      current(name) {
        return currentMember(context, name);
      },
    },
  };
  return context;
}

function currentMember(context: Context, name: string | undefined): unknown {
  const lowered = name?.toLowerCase();
  const aliasPath = lowered === undefined ? undefined : context.aliases?.get(lowered);
  for (let i = context.counts.length - 1; i >= 0; i--) {
    const scope = context.counts[i]!;
    if (lowered === undefined) return scope.member;
    if (scope.kind === "value" && scope.name === lowered) return scope.member;
    if (scope.kind === "field" && aliasPath && insidePath(aliasPath, scope.path)) {
      // current() gives the member's own value, unlike field(); only a further [*] below the
      // counted array makes it a list.
      const rest = aliasPath.segments.slice(scope.path.segments.length);
      const value = walk(scope.member, aliasPath, scope.path.segments.length);
      const values = value.multi ? value.values : [value.value];
      return rest.some((segment) => segment.each) ? values : values[0];
    }
  }
  throw new PolicyEvaluationError(
    `current(${name === undefined ? "" : `'${name}'`}) is used outside a matching count`,
  );
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
