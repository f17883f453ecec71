import type { AwsDefinition, IamStatementTemplate } from "../../catalogue/definition-schema";
import {
  type ActiveWaiver,
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

/** AWS Organizations quotas for service control policies. */
export const SCP_MAX_CHARACTERS = 5120;
export const SCP_MAX_PER_TARGET = 5;
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

type ConditionScalar = string | number | boolean;
type Condition = Record<string, Record<string, ConditionScalar[]>>;

interface Statement {
  actionKey: "Action" | "NotAction";
  actions: string[];
  resourceKey?: "Resource" | "NotResource";
  resources: string[];
  condition: Condition;
}

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function normalize(template: IamStatementTemplate): Statement {
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

const sameSet = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length &&
  [...a].map(String).sort().join("\u0000") === [...b].map(String).sort().join("\u0000");
const union = <T>(a: T[], b: T[]): T[] => [
  ...a,
  ...b.filter((item) => !a.some((x) => String(x) === String(item))),
];

/** Negated operators match when the key matches none of the values, so two of them conjoin by union. */
function isNegated(operator: string): boolean {
  return (
    !operator.startsWith("ForAnyValue:") && /(^|:)(String|Numeric|Date|Arn)Not|NotIpAddress/.test(operator)
  );
}

/** Conjunction of two condition blocks; throws where IAM cannot express it in one statement. */
function conjoin(a: Condition, b: Condition): Condition {
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

function merge(a: Statement, b: Statement): Statement {
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

const COMPLEMENT: Record<string, string> = {
  StringEquals: "StringNotEquals",
  StringEqualsIgnoreCase: "StringNotEqualsIgnoreCase",
  StringLike: "StringNotLike",
  NumericEquals: "NumericNotEquals",
  DateEquals: "DateNotEquals",
  ArnEquals: "ArnNotEquals",
  ArnLike: "ArnNotLike",
  IpAddress: "NotIpAddress",
};
for (const [positive, negative] of Object.entries(COMPLEMENT)) COMPLEMENT[negative] = positive;

// Both sides of an ordering are false for a missing key, so the negation adds IfExists.
const ORDER_COMPLEMENT: Record<string, string> = {
  NumericLessThan: "NumericGreaterThanEquals",
  NumericLessThanEquals: "NumericGreaterThan",
  DateLessThan: "DateGreaterThanEquals",
  DateLessThanEquals: "DateGreaterThan",
};
for (const [a, b] of Object.entries(ORDER_COMPLEMENT)) ORDER_COMPLEMENT[b] = a;

const flipBool = (value: ConditionScalar) => (String(value).toLowerCase() === "true" ? "false" : "true");

/**
 * The condition that holds exactly when `operator key values` does not, including IAM's rules for
 * keys missing from the request (positive operators are false, negated ones true, IfExists true).
 */
function negateCondition(operator: string, key: string, values: ConditionScalar[]): Condition {
  const unsupported = (why: string) =>
    new CompileError("INVALID_TREE", `a not junction cannot negate ${operator} on ${key}: ${why}`);
  const match = /^(ForAnyValue:|ForAllValues:)?(.+?)(IfExists)?$/.exec(operator)!;
  const [, qualifier, base, ifExists] = match as unknown as [
    string,
    string | undefined,
    string,
    string | undefined,
  ];
  if (qualifier) {
    if (ifExists || !COMPLEMENT[base!])
      throw unsupported("only string, ARN and IP set operators can be negated");
    const other = qualifier === "ForAnyValue:" ? "ForAllValues:" : "ForAnyValue:";
    return { [`${other}${COMPLEMENT[base!]}`]: { [key]: values } };
  }
  if (base === "Null") {
    if (values.length !== 1) throw unsupported("Null takes a single value");
    return { Null: { [key]: [flipBool(values[0]!)] } };
  }
  if (base === "Bool") {
    if (values.length !== 1) throw unsupported("Bool takes a single value");
    return { [ifExists ? "Bool" : "BoolIfExists"]: { [key]: [flipBool(values[0]!)] } };
  }
  if (ORDER_COMPLEMENT[base!]) {
    if (values.length !== 1)
      throw unsupported("an ordering with several values has no single-statement negation");
    return { [`${ORDER_COMPLEMENT[base!]}${ifExists ? "" : "IfExists"}`]: { [key]: values } };
  }
  const complement = COMPLEMENT[base!];
  if (!complement) throw unsupported("the operator has no complement");
  const negatedBase = isNegated(base!);
  if (ifExists && !negatedBase) {
    // XIfExists is true for a missing key, so its negation needs the key present.
    return { [complement]: { [key]: values }, Null: { [key]: ["false"] } };
  }
  return { [complement]: { [key]: values } };
}

/** not(A): the same actions and resources with the condition negated, one statement per condition. */
function negate(statement: Statement): Statement[] {
  const out: Statement[] = [];
  for (const [operator, entries] of Object.entries(statement.condition)) {
    for (const [key, values] of Object.entries(entries)) {
      out.push({ ...statement, condition: negateCondition(operator, key, values) });
    }
  }
  return out;
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

interface Exclusions {
  principals: string[];
  accounts: string[];
  orgPaths: string[];
  resources: string[];
  everything: boolean;
}

const ACCOUNT = /^\d{12}$/;
const OU = /^ou-[0-9a-z]{4,32}-[0-9a-z]{8,32}$/;
const ROOT = /^r-[0-9a-z]{4,32}$/;
const PRINCIPAL = /^arn:aws[a-z-]*:(iam|sts)::\d{12}:/;

function emptyExclusions(): Exclusions {
  return { principals: [], accounts: [], orgPaths: [], resources: [], everything: false };
}

function addScope(exclusions: Exclusions, scope: string, what: string): void {
  if (ACCOUNT.test(scope)) exclusions.accounts.push(scope);
  else if (OU.test(scope)) exclusions.orgPaths.push(`*/${scope}/*`);
  else if (ROOT.test(scope)) exclusions.everything = true;
  else if (PRINCIPAL.test(scope)) exclusions.principals.push(scope);
  else
    throw new CompileError(
      "PARSE_WAIVER_SCOPE_FAILED",
      `${what}: ${scope} is not an AWS account id, OU id, root id or principal ARN`,
    );
}

function addWaiver(exclusions: Exclusions, waiver: ActiveWaiver): void {
  const named = [waiver.principalArn, waiver.accountId, waiver.resource, waiver.scope].filter(
    (v) => v !== undefined,
  );
  if (named.length !== 1) {
    throw new CompileError(
      "PARSE_WAIVER_SCOPE_FAILED",
      `waiver ${waiver.id} must name exactly one principal, account, resource or scope`,
    );
  }
  if (waiver.principalArn !== undefined) {
    if (!PRINCIPAL.test(waiver.principalArn)) {
      throw new CompileError(
        "PARSE_WAIVER_SCOPE_FAILED",
        `waiver ${waiver.id}: ${waiver.principalArn} is not an IAM principal ARN`,
      );
    }
    exclusions.principals.push(waiver.principalArn);
  } else if (waiver.accountId !== undefined) {
    if (!ACCOUNT.test(waiver.accountId)) {
      throw new CompileError(
        "PARSE_WAIVER_SCOPE_FAILED",
        `waiver ${waiver.id}: ${waiver.accountId} is not a 12-digit account id`,
      );
    }
    exclusions.accounts.push(waiver.accountId);
  } else if (waiver.resource !== undefined) {
    if (!waiver.resource.startsWith("arn:")) {
      throw new CompileError(
        "PARSE_WAIVER_SCOPE_FAILED",
        `waiver ${waiver.id}: ${waiver.resource} is not an ARN`,
      );
    }
    exclusions.resources.push(waiver.resource);
  } else addScope(exclusions, waiver.scope!, `waiver ${waiver.id}`);
}

/** The statement, narrowed so it does not apply to anything in `exclusions`; undefined when nothing is left. */
function exclude(statement: Statement, exclusions: Exclusions, slug: string): Statement | undefined {
  if (exclusions.everything) return undefined;
  const condition: Condition = {};
  const uniq = (values: string[]) => [...new Set(values)];
  if (exclusions.principals.length > 0)
    condition.ArnNotLike = { "aws:PrincipalArn": uniq(exclusions.principals) };
  if (exclusions.accounts.length > 0)
    condition.StringNotEquals = { "aws:PrincipalAccount": uniq(exclusions.accounts) };
  if (exclusions.orgPaths.length > 0) {
    condition["ForAllValues:StringNotLike"] = { "aws:PrincipalOrgPaths": uniq(exclusions.orgPaths) };
  }
  let resources: Pick<Statement, "resourceKey" | "resources"> = statement;
  if (exclusions.resources.length > 0) {
    if (statement.resourceKey === "NotResource") {
      resources = {
        resourceKey: "NotResource",
        resources: union(statement.resources, uniq(exclusions.resources)),
      };
    } else if (statement.resourceKey === undefined || sameSet(statement.resources, ["*"])) {
      resources = { resourceKey: "NotResource", resources: uniq(exclusions.resources) };
    } else {
      throw new CompileError(
        "PARSE_WAIVER_SCOPE_FAILED",
        `${slug} names specific resources (${statement.resources.join(", ")}), so a single resource cannot be waived; waive the principal or the account instead`,
      );
    }
  }
  return { ...statement, ...resources, condition: conjoin(statement.condition, condition) };
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
  if (content.length > SCP_MAX_CHARACTERS) {
    const over = content.length - SCP_MAX_CHARACTERS;
    throw new PolicyLimitExceededError(
      `The service control policy for ${input.key} (${aws.slug}) is ${content.length} characters, ${over} over the ` +
        `${SCP_MAX_CHARACTERS}-character limit of AWS Organizations. Shorten list parameters or reduce the ` +
        `${waivers.length} active waivers (each distinct expiry time repeats every statement).`,
      SCP_MAX_CHARACTERS,
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

/**
 * AWS Organizations allows 5 SCPs per root, OU or account (FullAWSAccess included). Throws when
 * attaching one more policy to any target would exceed that, given how many each already has.
 */
export function checkScpTargetLimits(
  key: string,
  targets: string[],
  existingCounts: Readonly<Record<string, number>>,
): void {
  const full = targets.filter((target) => (existingCounts[target] ?? 0) >= SCP_MAX_PER_TARGET);
  if (full.length > 0) {
    throw new PolicyLimitExceededError(
      `Cannot attach ${key}: ${full.map((t) => `${t} already has ${existingCounts[t]}`).join(", ")} of the ` +
        `${SCP_MAX_PER_TARGET} service control policies AWS Organizations allows per target`,
      SCP_MAX_PER_TARGET,
      Math.max(...full.map((t) => existingCounts[t]!)) + 1,
    );
  }
}
