import type { ContextValue } from "./evaluate-scp";
import type { ConditionBlock, ConditionValue } from "./iam-policy-document";
import { parseIpAddress, parseIpRange, rangeContains } from "./ip-address";
import {
  hasVariables,
  parsePolicyString,
  resolveLiteral,
  type VariableLookup,
  WildcardPattern,
} from "./policy-string";

/** Request context with lower-case keys: IAM condition keys are case-insensitive. */
export type RequestContext = ReadonlyMap<string, ContextValue>;

/**
 * Does the request value match any of the policy values? undefined means the comparison cannot be
 * made (unresolvable policy variable, request value of the wrong type): the statement then does not apply.
 */
type ValueTest = (requestValue: string, lookup: VariableLookup) => boolean | undefined;

interface OperatorFamily {
  negated: boolean;
  /** undefined when a policy value is not valid for the operator. */
  compile(values: string[], variables: boolean): ValueTest | undefined;
}

function stringEquals(ignoreCase: boolean): OperatorFamily["compile"] {
  return (values, variables) => {
    const fold = (text: string) => (ignoreCase ? text.toLowerCase() : text);
    const parsed = values.map((value) => parsePolicyString(value, { wildcards: false, variables }));
    if (!parsed.some(hasVariables)) {
      const set = new Set(parsed.map((parts) => fold(resolveLiteral(parts, () => undefined) ?? "")));
      return (requestValue) => set.has(fold(requestValue));
    }
    return (requestValue, lookup) => {
      const candidate = fold(requestValue);
      let unresolved = false;
      for (const parts of parsed) {
        const policyValue = resolveLiteral(parts, lookup);
        if (policyValue === undefined) unresolved = true;
        else if (fold(policyValue) === candidate) return true;
      }
      return unresolved ? undefined : false;
    };
  };
}

function wildcardMatch(arnComponents: boolean): OperatorFamily["compile"] {
  return (values, variables) => {
    const patterns = values.map(
      (value) => new WildcardPattern(value, { caseInsensitive: false, arnComponents, variables }),
    );
    return (requestValue, lookup) => {
      let unresolved = false;
      for (const pattern of patterns) {
        const result = pattern.matches(requestValue, lookup);
        if (result === true) return true;
        if (result === undefined) unresolved = true;
      }
      return unresolved ? undefined : false;
    };
  };
}

function parseNumber(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

/** IAM accepts ISO 8601 dates and epoch (UNIX) seconds. */
export function parseIamDate(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? undefined : time;
}

function ordered(
  parse: (text: string) => number | undefined,
  compare: (request: number, policy: number) => boolean,
): OperatorFamily["compile"] {
  return (values) => {
    const parsed = values.map(parse);
    if (parsed.some((value) => value === undefined)) return undefined;
    const policyValues = parsed as number[];
    return (requestValue) => {
      const request = parse(requestValue);
      if (request === undefined) return undefined;
      return policyValues.some((policyValue) => compare(request, policyValue));
    };
  };
}

const booleanEquals: OperatorFamily["compile"] = (values) => {
  const lowered = values.map((value) => value.toLowerCase());
  if (lowered.some((value) => value !== "true" && value !== "false")) return undefined;
  const set = new Set(lowered);
  return (requestValue) => set.has(requestValue.toLowerCase());
};

const binaryEquals: OperatorFamily["compile"] = (values) => {
  if (values.some((value) => !/^[A-Za-z0-9+/]*={0,2}$/.test(value))) return undefined;
  const set = new Set(values);
  return (requestValue) => set.has(requestValue);
};

const ipAddress: OperatorFamily["compile"] = (values) => {
  const ranges = values.map(parseIpRange);
  if (ranges.some((range) => range === undefined)) return undefined;
  return (requestValue) => {
    const address = parseIpAddress(requestValue);
    if (!address) return undefined;
    return ranges.some((range) => rangeContains(range!, address));
  };
};

const eq = (a: number, b: number) => a === b;
const lt = (a: number, b: number) => a < b;
const le = (a: number, b: number) => a <= b;
const gt = (a: number, b: number) => a > b;
const ge = (a: number, b: number) => a >= b;

const FAMILIES: Record<string, OperatorFamily> = {
  StringEquals: { negated: false, compile: stringEquals(false) },
  StringNotEquals: { negated: true, compile: stringEquals(false) },
  StringEqualsIgnoreCase: { negated: false, compile: stringEquals(true) },
  StringNotEqualsIgnoreCase: { negated: true, compile: stringEquals(true) },
  StringLike: { negated: false, compile: wildcardMatch(false) },
  StringNotLike: { negated: true, compile: wildcardMatch(false) },
  NumericEquals: { negated: false, compile: ordered(parseNumber, eq) },
  NumericNotEquals: { negated: true, compile: ordered(parseNumber, eq) },
  NumericLessThan: { negated: false, compile: ordered(parseNumber, lt) },
  NumericLessThanEquals: { negated: false, compile: ordered(parseNumber, le) },
  NumericGreaterThan: { negated: false, compile: ordered(parseNumber, gt) },
  NumericGreaterThanEquals: { negated: false, compile: ordered(parseNumber, ge) },
  DateEquals: { negated: false, compile: ordered(parseIamDate, eq) },
  DateNotEquals: { negated: true, compile: ordered(parseIamDate, eq) },
  DateLessThan: { negated: false, compile: ordered(parseIamDate, lt) },
  DateLessThanEquals: { negated: false, compile: ordered(parseIamDate, le) },
  DateGreaterThan: { negated: false, compile: ordered(parseIamDate, gt) },
  DateGreaterThanEquals: { negated: false, compile: ordered(parseIamDate, ge) },
  Bool: { negated: false, compile: booleanEquals },
  BinaryEquals: { negated: false, compile: binaryEquals },
  IpAddress: { negated: false, compile: ipAddress },
  NotIpAddress: { negated: true, compile: ipAddress },
  ArnEquals: { negated: false, compile: wildcardMatch(true) },
  ArnLike: { negated: false, compile: wildcardMatch(true) },
  ArnNotEquals: { negated: true, compile: wildcardMatch(true) },
  ArnNotLike: { negated: true, compile: wildcardMatch(true) },
};

/** Every IAM condition operator without its set qualifier and IfExists suffix. */
export const IAM_CONDITION_OPERATORS: readonly string[] = [...Object.keys(FAMILIES), "Null"];

/** Operators whose values may contain policy variables (string and ARN operators). */
const VARIABLE_FAMILIES = new Set([
  "StringEquals",
  "StringNotEquals",
  "StringEqualsIgnoreCase",
  "StringNotEqualsIgnoreCase",
  "StringLike",
  "StringNotLike",
  "ArnEquals",
  "ArnLike",
  "ArnNotEquals",
  "ArnNotLike",
]);

export interface ParsedOperator {
  family: string;
  set: "any" | "all" | undefined;
  ifExists: boolean;
}

export function parseConditionOperator(name: string): ParsedOperator | undefined {
  let rest = name;
  let set: ParsedOperator["set"];
  if (rest.startsWith("ForAnyValue:")) {
    set = "any";
    rest = rest.slice("ForAnyValue:".length);
  } else if (rest.startsWith("ForAllValues:")) {
    set = "all";
    rest = rest.slice("ForAllValues:".length);
  }
  if (rest === "Null") return set === undefined ? { family: "Null", set, ifExists: false } : undefined;
  let ifExists = false;
  if (rest.endsWith("IfExists")) {
    ifExists = true;
    rest = rest.slice(0, -"IfExists".length);
  }
  return FAMILIES[rest] ? { family: rest, set, ifExists } : undefined;
}

export type CompiledCondition = (context: RequestContext, lookup: VariableLookup) => boolean | undefined;

export class ConditionCompileError extends Error {}

function valueList(raw: ConditionValue | ConditionValue[]): string[] {
  return (Array.isArray(raw) ? raw : [raw]).map((value) => String(value));
}

function isPresent(raw: ContextValue | undefined): boolean {
  return raw !== undefined && !(Array.isArray(raw) && raw.length === 0);
}

function compileEntry(
  operatorName: string,
  key: string,
  raw: ConditionValue | ConditionValue[],
  variables: boolean,
) {
  const operator = parseConditionOperator(operatorName);
  if (!operator) throw new ConditionCompileError(`Unknown condition operator ${operatorName}`);
  const keyLower = key.toLowerCase();
  const values = valueList(raw);
  if (values.length === 0) throw new ConditionCompileError(`${operatorName} on ${key} has no values`);

  if (operator.family === "Null") {
    const lowered = values.map((value) => value.toLowerCase());
    if (lowered.some((value) => value !== "true" && value !== "false")) {
      throw new ConditionCompileError(`Null on ${key} takes "true" or "false"`);
    }
    const wantsAbsent = lowered.includes("true");
    const wantsPresent = lowered.includes("false");
    const entry: CompiledCondition = (context) => {
      const present = isPresent(context.get(keyLower));
      return (present && wantsPresent) || (!present && wantsAbsent);
    };
    return entry;
  }

  const family = FAMILIES[operator.family]!;
  const test = family.compile(values, variables && VARIABLE_FAMILIES.has(operator.family));
  if (!test)
    throw new ConditionCompileError(`${operatorName} on ${key} has a value the operator cannot compare`);
  const { negated } = family;
  const { set, ifExists } = operator;

  const single = (value: string, lookup: VariableLookup): boolean | undefined => {
    const matched = test(value, lookup);
    return matched === undefined ? undefined : negated ? !matched : matched;
  };

  const entry: CompiledCondition = (context, lookup) => {
    const rawValue = context.get(keyLower);
    // For the set operators an empty string is an empty (null) data set, like a missing key.
    if (!isPresent(rawValue) || (set !== undefined && rawValue === "")) {
      // ForAllValues holds vacuously on an empty set; ForAnyValue has nothing to match. A negated
      // operator on a missing key finds no matching value and so holds; IfExists skips the check.
      if (set === "all") return true;
      if (set === "any") return ifExists;
      return ifExists || negated;
    }
    const requestValues = Array.isArray(rawValue) ? rawValue : [String(rawValue)];
    if (set === "all" || (set === undefined && negated)) {
      for (const value of requestValues) {
        const result = single(value, lookup);
        if (result !== true) return result;
      }
      return true;
    }
    let unresolved = false;
    for (const value of requestValues) {
      const result = single(value, lookup);
      if (result === true) return true;
      if (result === undefined) unresolved = true;
    }
    return unresolved ? undefined : false;
  };
  return entry;
}

/** Compiles a Condition block: operators and keys are AND'ed, the values of one key are OR'ed. */
export function compileConditionBlock(block: ConditionBlock, variables: boolean): CompiledCondition {
  const entries: CompiledCondition[] = [];
  for (const [operatorName, keys] of Object.entries(block)) {
    if (typeof keys !== "object" || keys === null || Array.isArray(keys)) {
      throw new ConditionCompileError(`${operatorName} must map condition keys to values`);
    }
    for (const [key, raw] of Object.entries(keys))
      entries.push(compileEntry(operatorName, key, raw, variables));
  }
  return (context, lookup) => {
    for (const entry of entries) {
      const result = entry(context, lookup);
      if (result !== true) return result;
    }
    return true;
  };
}
