/**
 * Strings in IAM policies (Resource, Action, condition values) may contain `*` / `?` wildcards and
 * `${key}` policy variables. `${*}`, `${?}` and `${$}` stand for the literal characters, and
 * `${key, 'default'}` falls back to the quoted text when the key is not in the request.
 */
export type PolicyStringPart =
  | { kind: "text"; text: string }
  | { kind: "star" }
  | { kind: "single" }
  | { kind: "variable"; key: string; fallback: string | undefined };

/** Returns the request's single value for a (lower-case) context key, or undefined. */
export type VariableLookup = (keyLower: string) => string | undefined;

const VARIABLE_BODY = /^([^\s,'{}$]+)\s*(?:,\s*'((?:[^']|'')*)')?$/;

export function parsePolicyString(
  raw: string,
  options: { wildcards: boolean; variables: boolean },
): PolicyStringPart[] {
  const parts: PolicyStringPart[] = [];
  let text = "";
  const flushText = () => {
    if (text !== "") parts.push({ kind: "text", text });
    text = "";
  };
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (options.variables && char === "$" && raw[i + 1] === "{") {
      const close = raw.indexOf("}", i + 2);
      if (close !== -1) {
        const body = raw.slice(i + 2, close).trim();
        if (body === "*" || body === "?" || body === "$") {
          text += body;
          i = close;
          continue;
        }
        const match = VARIABLE_BODY.exec(body);
        if (match) {
          flushText();
          parts.push({
            kind: "variable",
            key: match[1]!.toLowerCase(),
            fallback: match[2]?.replaceAll("''", "'"),
          });
          i = close;
          continue;
        }
      }
    }
    if (options.wildcards && (char === "*" || char === "?")) {
      flushText();
      parts.push(char === "*" ? { kind: "star" } : { kind: "single" });
      continue;
    }
    text += char;
  }
  flushText();
  return parts;
}

export function hasVariables(parts: PolicyStringPart[]): boolean {
  return parts.some((part) => part.kind === "variable");
}

/** Resolves a wildcard-free string; undefined when a variable has neither a value nor a default. */
export function resolveLiteral(parts: PolicyStringPart[], lookup: VariableLookup): string | undefined {
  let out = "";
  for (const part of parts) {
    if (part.kind === "text") out += part.text;
    else if (part.kind === "variable") {
      const value = lookup(part.key) ?? part.fallback;
      if (value === undefined) return undefined;
      out += value;
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

export interface WildcardOptions {
  caseInsensitive: boolean;
  /**
   * ARN operators compare each of the six colon-separated ARN components separately, so a
   * wildcard in the first five components does not run across a colon.
   */
  arnComponents: boolean;
}

/** A compiled wildcard pattern; `matches` answers undefined when a policy variable cannot be resolved. */
export class WildcardPattern {
  private readonly parts: PolicyStringPart[];
  private readonly options: WildcardOptions;
  private readonly matchAll: boolean;
  private readonly exact: string | undefined;
  private readonly regex: RegExp | undefined;
  private resolvedCache: Map<string, RegExp> | undefined;

  constructor(raw: string, options: WildcardOptions & { variables: boolean }) {
    this.parts = parsePolicyString(raw, { wildcards: true, variables: options.variables });
    this.options = options;
    this.matchAll = this.parts.length === 1 && this.parts[0]!.kind === "star";
    const dynamic = hasVariables(this.parts);
    const wild = this.parts.some((part) => part.kind === "star" || part.kind === "single");
    if (!dynamic && !wild) {
      const literal = resolveLiteral(this.parts, () => undefined) ?? "";
      this.exact = options.caseInsensitive ? literal.toLowerCase() : literal;
    } else if (!dynamic) {
      this.regex = this.compile(() => undefined)!;
    }
  }

  /** `value` must already be lower-case when the pattern is case-insensitive. */
  matches(value: string, lookup: VariableLookup): boolean | undefined {
    if (this.matchAll) return true;
    if (this.exact !== undefined) return this.exact === value;
    if (this.regex) return this.regex.test(value);
    const source = this.source(lookup);
    if (source === undefined) return undefined;
    this.resolvedCache ??= new Map();
    let regex = this.resolvedCache.get(source);
    if (!regex) {
      if (this.resolvedCache.size > 256) this.resolvedCache.clear();
      regex = new RegExp(source, this.options.caseInsensitive ? "is" : "s");
      this.resolvedCache.set(source, regex);
    }
    return regex.test(value);
  }

  private compile(lookup: VariableLookup): RegExp | undefined {
    const source = this.source(lookup);
    return source === undefined ? undefined : new RegExp(source, this.options.caseInsensitive ? "is" : "s");
  }

  private source(lookup: VariableLookup): string | undefined {
    const segmented = this.options.arnComponents;
    let component = 0;
    let out = "^";
    for (const part of this.parts) {
      const inLastComponent = !segmented || component >= 5;
      switch (part.kind) {
        case "text":
          out += escapeRegExp(part.text);
          component += part.text.split(":").length - 1;
          break;
        case "star":
          out += inLastComponent ? ".*" : "[^:]*";
          break;
        case "single":
          out += inLastComponent ? "." : "[^:]";
          break;
        case "variable": {
          const value = lookup(part.key) ?? part.fallback;
          if (value === undefined) return undefined;
          out += escapeRegExp(value);
          break;
        }
      }
    }
    return `${out}$`;
  }
}
