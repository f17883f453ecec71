import { PolicyEvaluationError } from "./template-expression";

/**
 * Azure Policy conditions on one value. Per the policy rule documentation, string comparisons are
 * case-insensitive except `match` / `notMatch`; `like` takes `*` wildcards; `match` takes `#` for
 * a digit, `?` for a letter and `.` for any character.
 */
export const CONDITION_NAMES = [
  "equals",
  "notEquals",
  "like",
  "notLike",
  "match",
  "matchInsensitively",
  "notMatch",
  "notMatchInsensitively",
  "contains",
  "notContains",
  "in",
  "notIn",
  "containsKey",
  "notContainsKey",
  "less",
  "lessOrEquals",
  "greater",
  "greaterOrEquals",
  "exists",
] as const;

export type ConditionName = (typeof CONDITION_NAMES)[number];

const CONDITION_BY_LOWER = new Map<string, ConditionName>(
  CONDITION_NAMES.map((name) => [name.toLowerCase(), name]),
);

/** Condition keys are matched case-insensitively, as Azure accepts e.g. "notequals". */
export function conditionNameOf(key: string): ConditionName | undefined {
  return CONDITION_BY_LOWER.get(key.toLowerCase());
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null;
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "string" && typeof b === "string")
    return a.length === b.length && a.toLowerCase() === b.toLowerCase();
  if (isMissing(a) || isMissing(b)) return isMissing(a) && isMissing(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => valuesEqual(item, b[i]))
    );
  }
  if (typeof a === "object" || typeof b === "object") {
    if (typeof a !== "object" || typeof b !== "object") return false;
    const entriesA = Object.entries(a as object);
    const recordB = b as Record<string, unknown>;
    return (
      entriesA.length === Object.keys(recordB).length &&
      entriesA.every(([key, value]) => valuesEqual(value, lookupKey(recordB, key)))
    );
  }
  // A number or boolean compares with its text form: "5" equals 5, "True" equals true.
  return String(a).toLowerCase() === String(b).toLowerCase();
}

function lookupKey(record: Record<string, unknown>, key: string): unknown {
  if (key in record) return record[key];
  const lowered = key.toLowerCase();
  for (const candidate of Object.keys(record))
    if (candidate.toLowerCase() === lowered) return record[candidate];
  return undefined;
}

const likeCache = new Map<string, RegExp>();
const matchCache = new Map<string, RegExp>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function cached(cache: Map<string, RegExp>, key: string, build: () => RegExp): RegExp {
  let regex = cache.get(key);
  if (!regex) {
    if (cache.size > 4096) cache.clear();
    regex = build();
    cache.set(key, regex);
  }
  return regex;
}

function like(actual: unknown, pattern: unknown): boolean {
  if (typeof actual !== "string") return false;
  const text = String(pattern);
  const regex = cached(
    likeCache,
    text,
    () => new RegExp(`^${text.split("*").map(escapeRegExp).join(".*")}$`, "is"),
  );
  return regex.test(actual);
}

function match(actual: unknown, pattern: unknown, insensitive: boolean): boolean {
  if (typeof actual !== "string") return false;
  const text = String(pattern);
  const regex = cached(matchCache, `${insensitive ? "i" : "s"}${text}`, () => {
    let source = "^";
    for (const char of text) {
      if (char === "#") source += "[0-9]";
      else if (char === "?") source += "[A-Za-z]";
      else if (char === ".") source += ".";
      else source += escapeRegExp(char);
    }
    return new RegExp(`${source}$`, insensitive ? "is" : "s");
  });
  return regex.test(actual);
}

function contains(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "string") return actual.toLowerCase().includes(String(expected).toLowerCase());
  if (Array.isArray(actual)) return actual.some((item) => valuesEqual(item, expected));
  return false;
}

function inList(actual: unknown, list: unknown): boolean {
  if (!Array.isArray(list)) throw new PolicyEvaluationError("in and notIn take an array");
  return list.some((item) => valuesEqual(actual, item));
}

function containsKey(actual: unknown, key: unknown): boolean {
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
  return lookupKey(actual as Record<string, unknown>, String(key)) !== undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Orders numbers numerically, dates chronologically and other strings case-insensitively. */
function order(actual: unknown, expected: unknown): number | undefined {
  if (typeof actual === "number" && typeof expected === "number") return actual - expected;
  if (typeof actual === "string" && typeof expected === "string") {
    if (ISO_DATE.test(actual) && ISO_DATE.test(expected)) return Date.parse(actual) - Date.parse(expected);
    const a = actual.toLowerCase();
    const b = expected.toLowerCase();
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const numberA = typeof actual === "string" && actual.trim() !== "" ? Number(actual) : actual;
  const numberB = typeof expected === "string" && expected.trim() !== "" ? Number(expected) : expected;
  if (typeof numberA === "number" && typeof numberB === "number" && !Number.isNaN(numberA + numberB)) {
    return numberA - numberB;
  }
  return undefined;
}

function compare(actual: unknown, expected: unknown, accept: (difference: number) => boolean): boolean {
  if (isMissing(actual)) return false;
  const difference = order(actual, expected);
  // Azure throws when the property's type does not match the condition's, failing the evaluation.
  if (difference === undefined)
    throw new PolicyEvaluationError("less/greater compare values of different types");
  return accept(difference);
}

function existsExpected(expected: unknown): boolean {
  if (typeof expected === "boolean") return expected;
  const text = String(expected).toLowerCase();
  if (text !== "true" && text !== "false") throw new PolicyEvaluationError('exists takes "true" or "false"');
  return text === "true";
}

export function testCondition(name: ConditionName, actual: unknown, expected: unknown): boolean {
  switch (name) {
    case "equals":
      return valuesEqual(actual, expected);
    case "notEquals":
      return !valuesEqual(actual, expected);
    case "like":
      return like(actual, expected);
    case "notLike":
      return !like(actual, expected);
    case "match":
      return match(actual, expected, false);
    case "matchInsensitively":
      return match(actual, expected, true);
    case "notMatch":
      return !match(actual, expected, false);
    case "notMatchInsensitively":
      return !match(actual, expected, true);
    case "contains":
      return contains(actual, expected);
    case "notContains":
      return !contains(actual, expected);
    case "in":
      return inList(actual, expected);
    case "notIn":
      return !inList(actual, expected);
    case "containsKey":
      return containsKey(actual, expected);
    case "notContainsKey":
      return !containsKey(actual, expected);
    case "less":
      return compare(actual, expected, (d) => d < 0);
    case "lessOrEquals":
      return compare(actual, expected, (d) => d <= 0);
    case "greater":
      return compare(actual, expected, (d) => d > 0);
    case "greaterOrEquals":
      return compare(actual, expected, (d) => d >= 0);
    case "exists":
      return existsExpected(expected) === !isMissing(actual);
  }
}
