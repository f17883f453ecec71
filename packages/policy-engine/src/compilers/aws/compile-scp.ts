import type { AwsDefinition } from "../../catalogue/definition-schema";
import {
  activeWaivers,
  type CompileBundleInput,
  CompileError,
  PolicyLimitExceededError,
  type Scope,
} from "../compile-input";
import {
  type InlinedAwsNode,
  inlineAwsTree,
  resolveBundleParameters,
  substituteAwsPlaceholders,
} from "../tree";
import { negate } from "./negate-statement";
import { DEFAULT_SCP_LIMITS } from "./pack-scps";
import { addScope, addWaiver, emptyExclusions, exclude } from "./scp-exclusions";
import { type Condition, conjoin, merge, normalize, type Statement } from "./scp-statement";

/**
 * AWS Organizations quotas for service control policies
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html). The
 * character limit is the default; an organisation with a raised quota passes its own.
 */
export const SCP_MAX_CHARACTERS = DEFAULT_SCP_LIMITS.characters;
export const SCP_MAX_NAME = 128;
export const SCP_MAX_DESCRIPTION = 512;

export interface CompiledScp {
  name: string;
  description: string;
  /** Minified policy document, as sent to CreatePolicy/UpdatePolicy. */
  content: string;
  /** Roots, OUs and accounts to attach the policy to. */
  targets: string[];
  /**
   * SCPs cannot audit, so in ALERT mode the policy is not attached: the audit stream is evaluated
   * against `content` instead and would-be denials are recorded.
   */
  attach: boolean;
}

/** The statements a tree compiles to; the policy denies when any of them applies. */
function compileNode(node: InlinedAwsNode): Statement[] {
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

function toJson(statement: Statement, sid: string): Record<string, unknown> {
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
    [statement.actionKey]: one(statement.actions),
    [statement.resourceKey ?? "Resource"]: statement.resourceKey ? one(statement.resources) : "*",
    ...(Object.keys(condition).length > 0 ? { Condition: condition } : {}),
  };
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Compiles a bundle of an aws_scp definition into one service control policy. Waivers become
 * time windows: between consecutive waiver expiries the deny statements exempt exactly the
 * waivers still in force (`DateGreaterThanEquals`/`DateLessThan` on `aws:CurrentTime`), so AWS
 * itself stops honouring a waiver when it expires, even if Palisade is not running.
 */
export function compileScp(input: CompileBundleInput): CompiledScp {
  const definition = input.definition;
  if (definition.enforcer !== "aws_scp") {
    throw new CompileError(
      "INVALID_TREE",
      `${definition.slug} is enforced by ${definition.enforcer}, not aws_scp`,
    );
  }
  const aws = definition as AwsDefinition;
  const values = resolveBundleParameters(aws, input.parameters);
  const tree = substituteAwsPlaceholders(
    inlineAwsTree(aws, input.definitions),
    values,
    aws.parameter_definitions,
  );
  const statements = compileNode(tree);

  const excludedIds = new Set(input.excludedScopes.map((scope) => scope.id));
  const targets = input.scopes.map((scope: Scope) => scope.id).filter((id) => !excludedIds.has(id));
  const permanent = emptyExclusions();
  for (const scope of input.excludedScopes) addScope(permanent, scope.id, "excluded scope");

  const waivers = activeWaivers(input.waivers, input.now);
  const expiries = [...new Set(waivers.map((w) => w.expiresAt.getTime()))].sort((a, b) => a - b);
  const output: Record<string, unknown>[] = [];
  statements.forEach((statement, index) => {
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
        aws.slug,
      );
      if (narrowed)
        output.push(toJson(narrowed, `Palisade${input.key}S${index}${expiries.length > 0 ? `W${k}` : ""}`));
    }
  });

  const content = JSON.stringify({ Version: "2012-10-17", Statement: output });
  const limit = input.scpMaxCharacters ?? SCP_MAX_CHARACTERS;
  if (content.length > limit) {
    const over = content.length - limit;
    throw new PolicyLimitExceededError(
      `The service control policy for ${input.key} (${aws.slug}) is ${content.length} characters, ${over} over the ` +
        `${limit}-character limit of AWS Organizations. Shorten list parameters or reduce the ` +
        `${waivers.length} active waivers (each distinct expiry time repeats every statement).`,
      limit,
      content.length,
    );
  }
  return {
    name: truncate(`palisade-${input.key}-${aws.slug}`, SCP_MAX_NAME),
    description: truncate(
      `Palisade ${input.key}: ${aws.display_name} (bundle "${input.name}", ${input.mode})`,
      SCP_MAX_DESCRIPTION,
    ),
    content,
    targets,
    attach: input.mode === "PREVENT",
  };
}
