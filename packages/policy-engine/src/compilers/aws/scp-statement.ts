import type { IamStatementTemplate } from "../../catalogue/definition-schema";
import { CompileError } from "../compile-input";

export type ConditionScalar = string | number | boolean;
export type Condition = Record<string, Record<string, ConditionScalar[]>>;

export interface Statement {
  actionKey: "Action" | "NotAction";
  actions: string[];
  resourceKey?: "Resource" | "NotResource";
  resources: string[];
  condition: Condition;
}

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export function normalize(template: IamStatementTemplate): Statement {
  const condition: Condition = {};
  for (const [operator, entries] of Object.entries(template.Condition ?? {})) {
    condition[operator] = {};
    for (const [key, value] of Object.entries(entries)) condition[operator]![key] = list(value);
  }
  return {
    actionKey: template.Action !== undefined ? "Action" : "NotAction",
    actions: list(template.Action ?? template.NotAction),
    resourceKey:
      template.Resource !== undefined
        ? "Resource"
        : template.NotResource !== undefined
          ? "NotResource"
          : undefined,
    resources: list(template.Resource ?? template.NotResource),
    condition,
  };
}

export const sameSet = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length &&
  [...a].map(String).sort().join("\u0000") === [...b].map(String).sort().join("\u0000");
export const union = <T>(a: T[], b: T[]): T[] => [
  ...a,
  ...b.filter((item) => !a.some((x) => String(x) === String(item))),
];

/** Negated operators match when the key matches none of the values, so two of them conjoin by union. */
export function isNegated(operator: string): boolean {
  return (
    !operator.startsWith("ForAnyValue:") && /(^|:)(String|Numeric|Date|Arn)Not|NotIpAddress/.test(operator)
  );
}

/** Conjunction of two condition blocks; throws where IAM cannot express it in one statement. */
export function conjoin(a: Condition, b: Condition): Condition {
  const out: Condition = structuredClone(a);
  for (const [operator, entries] of Object.entries(b)) {
    const target = out[operator] ?? {};
    out[operator] = target;
    for (const [key, values] of Object.entries(entries)) {
      const existing = Object.entries(target).find(([k]) => k.toLowerCase() === key.toLowerCase());
      if (!existing) target[key] = [...values];
      else if (isNegated(operator)) target[existing[0]] = union(existing[1], values);
      else if (!sameSet(existing[1], values)) {
        throw new CompileError(
          "INVALID_TREE",
          `cannot combine two ${operator} conditions on ${key} with different values in one statement`,
        );
      }
    }
  }
  return out;
}

function mergeResources(a: Statement, b: Statement): Pick<Statement, "resourceKey" | "resources"> {
  const isAll = (s: Statement) =>
    s.resourceKey === undefined || (s.resourceKey === "Resource" && sameSet(s.resources, ["*"]));
  if (isAll(a)) return { resourceKey: b.resourceKey, resources: b.resources };
  if (isAll(b)) return { resourceKey: a.resourceKey, resources: a.resources };
  if (a.resourceKey === "NotResource" && b.resourceKey === "NotResource") {
    return { resourceKey: "NotResource", resources: union(a.resources, b.resources) };
  }
  if (a.resourceKey === b.resourceKey && sameSet(a.resources, b.resources))
    return { resourceKey: a.resourceKey, resources: a.resources };
  throw new CompileError(
    "INVALID_TREE",
    "children of an and junction name different resources; IAM cannot intersect them",
  );
}

export function merge(a: Statement, b: Statement): Statement {
  if (a.actionKey !== b.actionKey || !sameSet(a.actions, b.actions)) {
    throw new CompileError(
      "INVALID_TREE",
      `children of an and junction must name the same ${a.actionKey} (${a.actions.join(", ")} vs ${b.actionKey} ${b.actions.join(", ")})`,
    );
  }
  return {
    actionKey: a.actionKey,
    actions: a.actions,
    ...mergeResources(a, b),
    condition: conjoin(a.condition, b.condition),
  };
}
