import type { AwsDefinition, AwsRcpDefinition } from "../../catalogue/definition-schema";
import { activeWaivers, type CompileBundleInput, CompileError, type Scope } from "../compile-input";
import {
  type InlinedAwsNode,
  inlineAwsTree,
  resolveBundleParameters,
  substituteAwsPlaceholders,
} from "../tree";
import { negate } from "./negate-statement";
import { addScope, addWaiver, emptyExclusions, exclude } from "./scp-exclusions";
import { type Condition, conjoin, merge, normalize, type Statement } from "./scp-statement";

/** The statements a tree compiles to; the policy denies when any of them applies. */
export function compileNode(node: InlinedAwsNode): Statement[] {
  if ("atomic" in node) return [normalize(node.atomic)];
  const { operator, nodes } = node.junction;
  if (operator === "or") return nodes.flatMap(compileNode);
  if (operator === "not") {
    const [only] = nodes;
    if (nodes.length !== 1 || !only || !("atomic" in only)) {
      throw new CompileError("INVALID_TREE", "a not junction must wrap exactly one atomic statement");
    }
    return negate(normalize(only.atomic));
  }
  // and distributes over or: (A or B) and C = (A and C) or (B and C).
  return nodes
    .map(compileNode)
    .reduce<Statement[] | undefined>(
      (acc, statements) =>
        acc === undefined ? statements : acc.flatMap((a) => statements.map((b) => merge(a, b))),
      undefined,
    )!;
}

function toJson(statement: Statement, sid: string, principal: boolean): Record<string, unknown> {
  const one = (values: unknown[]) => (values.length === 1 ? values[0] : values);
  const condition: Record<string, Record<string, unknown>> = {};
  for (const [operator, entries] of Object.entries(statement.condition)) {
    const keys = Object.entries(entries);
    if (keys.length === 0) continue;
    condition[operator] = Object.fromEntries(keys.map(([key, values]) => [key, one(values)]));
  }
  return {
    Sid: sid,
    Effect: "Deny",
    ...(principal ? { Principal: "*" } : {}),
    [statement.actionKey]: one(statement.actions),
    [statement.resourceKey ?? "Resource"]: statement.resourceKey ? one(statement.resources) : "*",
    ...(Object.keys(condition).length > 0 ? { Condition: condition } : {}),
  };
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

export interface GuardrailStatements {
  /** The definition's statements before waivers and exclusions, for checks on what they name. */
  base: Statement[];
  /** The policy document's statements, Sids `Palisade<KEY>S<i>[W<k>]`. */
  statements: Record<string, unknown>[];
  /** Roots, OUs and accounts the policy is attached to. */
  targets: string[];
  activeWaiverCount: number;
}

/**
 * The Deny statements of an AWS Organizations guardrail (service or resource control policy).
 * Waivers become time windows: between consecutive waiver expiries the statements exempt exactly
 * the waivers still in force (`DateGreaterThanEquals`/`DateLessThan` on `aws:CurrentTime`), so AWS
 * itself stops honouring a waiver when it expires, even if Palisade is not running. Every Sid
 * carries the bundle key, which is how a denial is traced back to its guardrail. Resource control
 * policies name `Principal: "*"` in every statement
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html).
 */
export function compileGuardrailStatements(
  input: CompileBundleInput,
  definition: AwsDefinition | AwsRcpDefinition,
): GuardrailStatements {
  const values = resolveBundleParameters(definition, input.parameters);
  const tree = substituteAwsPlaceholders(
    inlineAwsTree(definition, input.definitions),
    values,
    definition.parameter_definitions,
  );
  const base = compileNode(tree);

  const excludedIds = new Set(input.excludedScopes.map((scope) => scope.id));
  const targets = input.scopes.map((scope: Scope) => scope.id).filter((id) => !excludedIds.has(id));
  const permanent = emptyExclusions();
  for (const scope of input.excludedScopes) addScope(permanent, scope.id, "excluded scope");

  const waivers = activeWaivers(input.waivers, input.now);
  const expiries = [...new Set(waivers.map((w) => w.expiresAt.getTime()))].sort((a, b) => a - b);
  const principal = definition.enforcer === "aws_rcp";
  const statements: Record<string, unknown>[] = [];
  base.forEach((statement, index) => {
    // Window k runs from the k-th expiry (exclusive of earlier ones) to the next; the last window
    // has no waivers left.
    for (let k = 0; k <= expiries.length; k++) {
      const exclusions = structuredClone(permanent);
      for (const waiver of waivers)
        if (waiver.expiresAt.getTime() > (expiries[k - 1] ?? -Infinity)) addWaiver(exclusions, waiver);
      const window: Condition = {};
      if (k > 0) window.DateGreaterThanEquals = { "aws:CurrentTime": [iso(new Date(expiries[k - 1]!))] };
      if (k < expiries.length) window.DateLessThan = { "aws:CurrentTime": [iso(new Date(expiries[k]!))] };
      const narrowed = exclude(
        { ...statement, condition: conjoin(statement.condition, window) },
        exclusions,
        definition.slug,
      );
      if (narrowed) {
        const sid = `Palisade${input.key}S${index}${expiries.length > 0 ? `W${k}` : ""}`;
        statements.push(toJson(narrowed, sid, principal));
      }
    }
  });
  return { base, statements, targets, activeWaiverCount: waivers.length };
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
