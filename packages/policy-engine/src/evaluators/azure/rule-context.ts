import { type AliasTable, indexAliasTable, type PropertyPath, parsePropertyPath } from "./alias-table";
import type { AzureResource } from "./azure-resource";
import { type ExpressionScope, PolicyEvaluationError } from "./template-expression";

export type FieldValue = { multi: false; value: unknown } | { multi: true; values: unknown[] };

export type CountScope =
  | { kind: "field"; path: PropertyPath; member: unknown }
  | { kind: "value"; name: string | undefined; member: unknown };

export interface Context {
  resource: AzureResource;
  parameters: ReadonlyMap<string, unknown>;
  aliases: ReadonlyMap<string, PropertyPath> | undefined;
  counts: CountScope[];
  scope: ExpressionScope;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
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
export function resolvePath(path: PropertyPath, context: Context): FieldValue {
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

export type FieldResolver = (context: Context) => FieldValue;

export const single = (value: unknown): FieldValue => ({ multi: false, value });

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

export function fieldResolver(name: string): FieldResolver {
  let resolver = fieldResolvers.get(name);
  if (!resolver) {
    resolver = compileFieldName(name);
    if (fieldResolvers.size > 4096) fieldResolvers.clear();
    fieldResolvers.set(name, resolver);
  }
  return resolver;
}

function parameterMap(parameters: Record<string, unknown>): ReadonlyMap<string, unknown> {
  return new Map(Object.entries(parameters).map(([name, value]) => [name.toLowerCase(), value]));
}

/** What a rule is evaluated against: the resource, the parameters, its aliases and the counts entered. */
export function createContext(
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
