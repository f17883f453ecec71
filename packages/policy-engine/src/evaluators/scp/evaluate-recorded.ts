import { compilePolicy } from "./compile-policy";
import { type ContextValue, prepareRequest, type ScpPolicy } from "./evaluate-scp";

/**
 * One authorization check of a recorded request: IAM evaluates a request once per resource it
 * touches (RunInstances: the instance and each volume), each with the keys that resource has.
 */
export interface RecordedCheck {
  /** The resource's ARN; undefined when the record does not name it. */
  resource: string | undefined;
  context: Record<string, ContextValue>;
  /**
   * The condition keys (lower case) whose value, or absence, the record tells. A key ending in
   * "/" stands for every key under it ("aws:requesttag/"). A key not listed is unknown: the
   * request had it or not, the record does not say.
   */
  known: readonly string[];
}

/** A request as an audit record tells it: what can be evaluated, and what cannot. */
export interface RecordedRequest {
  action: string;
  principalArn: string;
  /** The account the request was made in. */
  account: string;
  checks: RecordedCheck[];
}

export type RecordedDecision =
  | { decision: "explicit_deny"; policy: ScpPolicy; statementIndex: number; sid: string | undefined }
  | { decision: "not_denied" }
  /** A statement about this request reads what the record does not tell; `missing` names it. */
  | { decision: "not_evaluable"; policy: ScpPolicy; missing: string[] };

function knows(known: readonly string[], key: string): boolean {
  for (const entry of known) {
    if (entry === key) return true;
    if (entry.endsWith("/") && key.startsWith(entry)) return true;
  }
  return false;
}

/**
 * The Deny statements of `policies` against a recorded request. A statement decides only when it
 * reads nothing the record leaves unknown: a condition on a key the record does not tell (an
 * absent key would make `StringNotEquals` hold) or a resource pattern against a resource the
 * record does not name would guess, so such a statement makes the request not evaluable instead,
 * unless another statement denies it on what is known.
 */
export function evaluateRecordedRequest(request: RecordedRequest, policies: ScpPolicy[]): RecordedDecision {
  let unsure: { policy: ScpPolicy; missing: Set<string> } | undefined;
  for (const check of request.checks) {
    const prepared = prepareRequest({
      action: request.action,
      resource: check.resource ?? "",
      principalArn: request.principalArn,
      context: check.context,
    });
    for (const policy of policies) {
      for (const statement of compilePolicy(policy.document).denies) {
        if (!statement.matchesAction(prepared)) continue;
        const missing: string[] = [];
        if (check.resource === undefined) {
          if (!statement.anyResource) missing.push("resource ARN");
        } else if (statement.matchesResource(prepared) !== true) continue;
        for (const key of statement.conditionKeys) if (!knows(check.known, key)) missing.push(key);
        if (missing.length > 0) {
          unsure ??= { policy, missing: new Set() };
          for (const key of missing) unsure.missing.add(key);
          continue;
        }
        if (statement.applies(prepared))
          return { decision: "explicit_deny", policy, statementIndex: statement.index, sid: statement.sid };
      }
    }
  }
  return unsure
    ? { decision: "not_evaluable", policy: unsure.policy, missing: [...unsure.missing] }
    : { decision: "not_denied" };
}

/**
 * `evaluateRecordedRequest` for many requests against the same policies: requests that agree on
 * everything the policies' Deny statements read (the action, the condition keys they name and
 * whether the record tells them, the resource where a statement names resources) get the same
 * decision, so each such projection is evaluated once.
 */
export function createRecordedEvaluator(
  policies: ScpPolicy[],
): (request: RecordedRequest) => RecordedDecision {
  // Policy variables read keys no condition names: such policies are evaluated request by request.
  if (policies.some((p) => JSON.stringify(p.document).includes("${")))
    return (request) => evaluateRecordedRequest(request, policies);
  const statements = policies.flatMap((p) => compilePolicy(p.document).denies);
  const keys = [...new Set(statements.flatMap((s) => s.conditionKeys))].sort();
  const readsResource = statements.some((s) => !s.anyResource);
  // The evaluator derives the principal's keys from its ARN where the context lacks them.
  const readsPrincipal = keys.some((k) => k === "aws:principalarn" || k === "aws:principalaccount");
  const memo = new Map<string, RecordedDecision>();
  const contextValue = (context: Record<string, unknown>, key: string) => {
    for (const [name, value] of Object.entries(context)) if (name.toLowerCase() === key) return value;
    return undefined;
  };
  return (request) => {
    const projection = [request.action.toLowerCase(), readsPrincipal ? request.principalArn : ""];
    for (const check of request.checks) {
      projection.push(
        readsResource ? String(check.resource) : "",
        ...keys.map((key) =>
          knows(check.known, key) ? JSON.stringify(contextValue(check.context, key) ?? null) : "?",
        ),
      );
    }
    const key = projection.join("\u0000");
    let decision = memo.get(key);
    if (!decision) {
      decision = evaluateRecordedRequest(request, policies);
      memo.set(key, decision);
    }
    return decision;
  };
}
