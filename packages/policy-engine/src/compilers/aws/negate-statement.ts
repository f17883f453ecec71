import { CompileError } from "../compile-input";
import { type Condition, type ConditionScalar, isNegated, type Statement } from "./scp-statement";

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
export function negate(statement: Statement): Statement[] {
  const out: Statement[] = [];
  for (const [operator, entries] of Object.entries(statement.condition)) {
    for (const [key, values] of Object.entries(entries)) {
      out.push({ ...statement, condition: negateCondition(operator, key, values) });
    }
  }
  return out;
}
