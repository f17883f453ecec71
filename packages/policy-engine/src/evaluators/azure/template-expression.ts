/**
 * The subset of the ARM template expression language that Azure Policy rules use:
 * `[function(args)]`, string literals in single quotes ('' escapes a quote), numbers, property
 * access (`.name`) and indexing (`[0]`, `['key']`). A string starting with `[[` is a literal
 * whose first `[` is dropped.
 */
export type Expression =
  | { kind: "literal"; value: unknown }
  | { kind: "call"; name: string; args: Expression[] }
  | { kind: "property"; target: Expression; name: string }
  | { kind: "index"; target: Expression; index: Expression };

export class PolicyEvaluationError extends Error {
  override readonly name = "PolicyEvaluationError";
}

export interface ExpressionScope {
  parameter(name: string): unknown;
  field(name: string): unknown;
  current(name: string | undefined): unknown;
}

export function isTemplateExpression(value: unknown): value is string {
  return typeof value === "string" && value.startsWith("[") && !value.startsWith("[[") && value.endsWith("]");
}

class Parser {
  private position = 0;
  constructor(private readonly text: string) {}

  parse(): Expression {
    const expression = this.expression();
    this.skipSpace();
    if (this.position !== this.text.length) this.error("unexpected text");
    return expression;
  }

  private error(message: string): never {
    throw new PolicyEvaluationError(
      `Invalid template expression "[${this.text}]": ${message} at ${this.position}`,
    );
  }

  private skipSpace() {
    while (/\s/.test(this.text[this.position] ?? "")) this.position++;
  }

  private expression(): Expression {
    this.skipSpace();
    let expression = this.primary();
    for (;;) {
      this.skipSpace();
      const char = this.text[this.position];
      if (char === ".") {
        this.position++;
        expression = { kind: "property", target: expression, name: this.identifier() };
      } else if (char === "[") {
        this.position++;
        const index = this.expression();
        this.skipSpace();
        if (this.text[this.position] !== "]") this.error("expected ]");
        this.position++;
        expression = { kind: "index", target: expression, index };
      } else return expression;
    }
  }

  private identifier(): string {
    this.skipSpace();
    const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.text.slice(this.position));
    if (!match) this.error("expected a name");
    this.position += match[0].length;
    return match[0];
  }

  private primary(): Expression {
    const char = this.text[this.position];
    if (char === "'") return { kind: "literal", value: this.string() };
    const number = /^-?\d+(\.\d+)?/.exec(this.text.slice(this.position));
    if (number) {
      this.position += number[0].length;
      return { kind: "literal", value: Number(number[0]) };
    }
    const name = this.identifier();
    this.skipSpace();
    if (this.text[this.position] !== "(") {
      const lowered = name.toLowerCase();
      if (lowered === "true" || lowered === "false") return { kind: "literal", value: lowered === "true" };
      if (lowered === "null") return { kind: "literal", value: null };
      this.error(`expected ( after ${name}`);
    }
    this.position++;
    const args: Expression[] = [];
    this.skipSpace();
    if (this.text[this.position] === ")") {
      this.position++;
      return { kind: "call", name: name.toLowerCase(), args };
    }
    for (;;) {
      args.push(this.expression());
      this.skipSpace();
      const next = this.text[this.position];
      this.position++;
      if (next === ")") return { kind: "call", name: name.toLowerCase(), args };
      if (next !== ",") this.error("expected , or )");
    }
  }

  private string(): string {
    let out = "";
    this.position++;
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) this.error("unterminated string");
      this.position++;
      if (char === "'") {
        if (this.text[this.position] === "'") {
          out += "'";
          this.position++;
        } else return out;
      } else out += char;
    }
  }
}

const parsed = new Map<string, Expression>();

/** Parses `[...]` (with the brackets); parsed expressions are cached by their text. */
export function parseTemplateExpression(text: string): Expression {
  let expression = parsed.get(text);
  if (!expression) {
    expression = new Parser(text.slice(1, -1)).parse();
    if (parsed.size > 4096) parsed.clear();
    parsed.set(text, expression);
  }
  return expression;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    return (
      keysA.length === keysB.length &&
      keysA.every((key) =>
        deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
      )
    );
  }
  return false;
}

function expectString(name: string, value: unknown): string {
  if (typeof value !== "string") throw new PolicyEvaluationError(`${name}() expects a string`);
  return value;
}

function property(target: unknown, name: string): unknown {
  if (target === null || typeof target !== "object" || Array.isArray(target)) {
    throw new PolicyEvaluationError(`Cannot read property '${name}' of a non-object value`);
  }
  const record = target as Record<string, unknown>;
  if (name in record) return record[name];
  const lowered = name.toLowerCase();
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lowered);
  if (key === undefined) throw new PolicyEvaluationError(`The object has no property '${name}'`);
  return record[key];
}

function compareValues(name: string, a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  throw new PolicyEvaluationError(`${name}() compares two numbers or two strings`);
}

type Builtin = (args: unknown[], scope: ExpressionScope) => unknown;

const FUNCTIONS: Record<string, Builtin> = {
  parameters: ([name], scope) => scope.parameter(expectString("parameters", name)),
  field: ([name], scope) => scope.field(expectString("field", name)),
  current: ([name], scope) => scope.current(name === undefined ? undefined : expectString("current", name)),
  concat: (args) =>
    args.length > 0 && args.every(Array.isArray)
      ? (args as unknown[][]).flat()
      : args
          .map((arg) => (typeof arg === "object" && arg !== null ? JSON.stringify(arg) : String(arg ?? "")))
          .join(""),
  tolower: ([value]) => expectString("toLower", value).toLowerCase(),
  toupper: ([value]) => expectString("toUpper", value).toUpperCase(),
  equals: ([a, b]) => deepEqual(a, b),
  empty: ([value]) => isEmpty(value),
  contains: ([container, item]) => {
    if (typeof container === "string") return container.includes(String(item));
    if (Array.isArray(container)) return container.some((entry) => deepEqual(entry, item));
    if (container && typeof container === "object") return String(item) in container;
    throw new PolicyEvaluationError("contains() expects a string, array or object");
  },
  length: ([value]) => {
    if (typeof value === "string" || Array.isArray(value)) return value.length;
    if (value && typeof value === "object") return Object.keys(value).length;
    throw new PolicyEvaluationError("length() expects a string, array or object");
  },
  split: ([text, delimiters]) => {
    const source = expectString("split", text);
    const list = Array.isArray(delimiters) ? delimiters.map(String) : [expectString("split", delimiters)];
    let pieces = [source];
    for (const delimiter of list) pieces = pieces.flatMap((piece) => piece.split(delimiter));
    return pieces;
  },
  first: ([value]) => {
    if (typeof value === "string" || Array.isArray(value))
      return value[0] ?? (typeof value === "string" ? "" : null);
    throw new PolicyEvaluationError("first() expects a string or array");
  },
  last: ([value]) => {
    if (typeof value === "string" || Array.isArray(value)) {
      return value[value.length - 1] ?? (typeof value === "string" ? "" : null);
    }
    throw new PolicyEvaluationError("last() expects a string or array");
  },
  replace: ([text, oldValue, newValue]) =>
    expectString("replace", text).replaceAll(
      expectString("replace", oldValue),
      expectString("replace", newValue),
    ),
  and: (args) => args.every((arg) => arg === true),
  or: (args) => args.some((arg) => arg === true),
  not: ([value]) => value !== true,
  true: () => true,
  false: () => false,
  startswith: ([text, prefix]) =>
    expectString("startsWith", text)
      .toLowerCase()
      .startsWith(expectString("startsWith", prefix).toLowerCase()),
  endswith: ([text, suffix]) =>
    expectString("endsWith", text).toLowerCase().endsWith(expectString("endsWith", suffix).toLowerCase()),
  less: ([a, b]) => compareValues("less", a, b) < 0,
  lessorequals: ([a, b]) => compareValues("lessOrEquals", a, b) <= 0,
  greater: ([a, b]) => compareValues("greater", a, b) > 0,
  greaterorequals: ([a, b]) => compareValues("greaterOrEquals", a, b) >= 0,
  substring: ([text, start, length]) => {
    const source = expectString("substring", text);
    const from = Number(start ?? 0);
    const count = length === undefined ? source.length - from : Number(length);
    if (from < 0 || count < 0 || from + count > source.length) {
      throw new PolicyEvaluationError(`substring() range ${from}+${count} is outside '${source}'`);
    }
    return source.slice(from, from + count);
  },
  take: ([value, count]) => {
    if (typeof value !== "string" && !Array.isArray(value))
      throw new PolicyEvaluationError("take() expects a string or array");
    return value.slice(0, Math.max(0, Number(count)));
  },
  string: ([value]) => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)),
  int: ([value]) => {
    const number = Number.parseInt(String(value), 10);
    if (Number.isNaN(number)) throw new PolicyEvaluationError(`int() cannot convert '${String(value)}'`);
    return number;
  },
};

export function evaluateExpression(expression: Expression, scope: ExpressionScope): unknown {
  switch (expression.kind) {
    case "literal":
      return expression.value;
    case "property":
      return property(evaluateExpression(expression.target, scope), expression.name);
    case "index": {
      const target = evaluateExpression(expression.target, scope);
      const index = evaluateExpression(expression.index, scope);
      if (Array.isArray(target) && typeof index === "number") {
        if (index < 0 || index >= target.length)
          throw new PolicyEvaluationError(`Index ${index} is out of range`);
        return target[index];
      }
      return property(target, String(index));
    }
    case "call": {
      if (expression.name === "if") {
        // Only the chosen branch is evaluated, so a guard like if(empty(x), '', first(x)) cannot fail.
        const [condition, whenTrue, whenFalse] = expression.args;
        if (!condition || !whenTrue || !whenFalse)
          throw new PolicyEvaluationError("if() takes three arguments");
        return evaluateExpression(
          evaluateExpression(condition, scope) === true ? whenTrue : whenFalse,
          scope,
        );
      }
      const builtin = FUNCTIONS[expression.name];
      if (!builtin) throw new PolicyEvaluationError(`Unsupported template function ${expression.name}()`);
      return builtin(
        expression.args.map((arg) => evaluateExpression(arg, scope)),
        scope,
      );
    }
  }
}

/** Resolves a value from a policy rule: template expressions are evaluated, `[[` escapes unwrapped. */
export function resolveTemplateValue(value: unknown, scope: ExpressionScope): unknown {
  if (typeof value !== "string" || !value.startsWith("[")) return value;
  if (value.startsWith("[[")) return value.slice(1);
  if (!value.endsWith("]")) return value;
  return evaluateExpression(parseTemplateExpression(value), scope);
}
