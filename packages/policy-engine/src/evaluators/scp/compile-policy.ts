import { type CompiledCondition, compileConditionBlock, type RequestContext } from "./condition-operators";
import {
  type IamPolicyDocument,
  type IamStatement,
  statementsOf,
  supportsPolicyVariables,
  toList,
} from "./iam-policy-document";
import { type VariableLookup, WildcardPattern } from "./policy-string";

export class MalformedPolicyDocumentError extends Error {
  override readonly name = "MalformedPolicyDocumentError";
}

export interface CompiledStatement {
  index: number;
  sid: string | undefined;
  effect: "Allow" | "Deny";
  applies(request: PreparedRequest): boolean;
  /** Whether the statement is about this action, and about this resource (undefined when unresolved). */
  matchesAction(request: PreparedRequest): boolean;
  matchesResource(request: PreparedRequest): boolean | undefined;
  /** The statement is about every resource, so it needs no resource to decide. */
  anyResource: boolean;
  /** The condition keys the statement reads, lower case. */
  conditionKeys: string[];
}

export interface CompiledPolicy {
  denies: CompiledStatement[];
  allows: CompiledStatement[];
}

export interface PreparedRequest {
  actionLower: string;
  resource: string;
  context: RequestContext;
  lookup: VariableLookup;
}

type ElementTest = (request: PreparedRequest) => boolean | undefined;

function compileActions(patterns: string[], negate: boolean): ElementTest {
  const exact = new Set<string>();
  const wild: WildcardPattern[] = [];
  let all = false;
  for (const pattern of patterns) {
    if (pattern === "*") all = true;
    else if (/[*?]/.test(pattern)) {
      wild.push(
        new WildcardPattern(pattern, { caseInsensitive: true, arnComponents: false, variables: false }),
      );
    } else exact.add(pattern.toLowerCase());
  }
  const noLookup: VariableLookup = () => undefined;
  return (request) => {
    const matched =
      all ||
      exact.has(request.actionLower) ||
      wild.some((p) => p.matches(request.actionLower, noLookup) === true);
    return negate ? !matched : matched;
  };
}

function compileResources(patterns: string[], negate: boolean, variables: boolean): ElementTest {
  if (patterns.includes("*")) return () => !negate;
  const compiled = patterns.map(
    (pattern) => new WildcardPattern(pattern, { caseInsensitive: false, arnComponents: false, variables }),
  );
  return (request) => {
    let unresolved = false;
    for (const pattern of compiled) {
      const result = pattern.matches(request.resource, request.lookup);
      if (result === true) return !negate;
      if (result === undefined) unresolved = true;
    }
    return unresolved ? undefined : negate;
  };
}

function compileStatement(statement: IamStatement, index: number, variables: boolean): CompiledStatement {
  if (typeof statement !== "object" || statement === null) {
    throw new MalformedPolicyDocumentError(`Statement ${index} is not an object`);
  }
  if (statement.Effect !== "Allow" && statement.Effect !== "Deny") {
    throw new MalformedPolicyDocumentError(`Statement ${index} has an invalid Effect`);
  }
  const action =
    statement.Action !== undefined
      ? compileActions(toList(statement.Action), false)
      : compileActions(toList(statement.NotAction), true);
  // A statement without Resource/NotResource is rejected by the validator; evaluating it as "all
  // resources" keeps evaluation total for documents that were never validated.
  const resource =
    statement.Resource !== undefined
      ? compileResources(toList(statement.Resource), false, variables)
      : statement.NotResource !== undefined
        ? compileResources(toList(statement.NotResource), true, variables)
        : () => true;
  let condition: CompiledCondition | undefined;
  if (statement.Condition !== undefined) {
    try {
      condition = compileConditionBlock(statement.Condition, variables);
    } catch (error) {
      throw new MalformedPolicyDocumentError(`Statement ${index}: ${(error as Error).message}`);
    }
  }
  const anyResource =
    statement.Resource === undefined
      ? statement.NotResource === undefined
      : toList(statement.Resource).includes("*");
  const conditionKeys =
    statement.Condition && typeof statement.Condition === "object"
      ? Object.values(statement.Condition).flatMap((keys) =>
          keys && typeof keys === "object" ? Object.keys(keys).map((k) => k.toLowerCase()) : [],
        )
      : [];
  return {
    index,
    sid: statement.Sid,
    effect: statement.Effect,
    matchesAction: (request) => action(request) === true,
    matchesResource: resource,
    anyResource,
    conditionKeys,
    applies: (request) =>
      action(request) === true &&
      resource(request) === true &&
      (condition === undefined || condition(request.context, request.lookup) === true),
  };
}

function compileDocument(document: IamPolicyDocument): CompiledPolicy {
  if (typeof document !== "object" || document === null || document.Statement === undefined) {
    throw new MalformedPolicyDocumentError("Policy document has no Statement");
  }
  const variables = supportsPolicyVariables(document);
  const compiled: CompiledPolicy = { denies: [], allows: [] };
  statementsOf(document).forEach((statement, index) => {
    const result = compileStatement(statement, index, variables);
    (result.effect === "Deny" ? compiled.denies : compiled.allows).push(result);
  });
  return compiled;
}

const byObject = new WeakMap<object, CompiledPolicy>();
const byText = new Map<string, CompiledPolicy>();
const MAX_TEXT_ENTRIES = 2048;

/** Compiled matchers are cached per document so repeated evaluations only run the matchers. */
export function compilePolicy(document: string | IamPolicyDocument): CompiledPolicy {
  if (typeof document === "string") {
    let compiled = byText.get(document);
    if (!compiled) {
      let parsed: IamPolicyDocument;
      try {
        parsed = JSON.parse(document) as IamPolicyDocument;
      } catch {
        throw new MalformedPolicyDocumentError("Syntax errors in policy");
      }
      compiled = compileDocument(parsed);
      if (byText.size >= MAX_TEXT_ENTRIES) byText.clear();
      byText.set(document, compiled);
    }
    return compiled;
  }
  let compiled = byObject.get(document);
  if (!compiled) {
    compiled = compileDocument(document);
    byObject.set(document, compiled);
  }
  return compiled;
}
