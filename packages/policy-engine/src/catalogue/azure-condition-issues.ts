import { CONDITION_NAMES } from "../evaluators/azure/condition-operators";
import type { Issue, PathPart } from "./catalogue-issue";

const AZURE_OPERATORS = new Set<string>(CONDITION_NAMES);
const AZURE_LOGICAL = new Set(["allOf", "anyOf", "not"]);
// Fields Azure Policy resolves without an alias.
const AZURE_PLAIN_FIELDS =
  /^(name|fullName|kind|type|location|id|identity\.type|tags|tags\[.+\]|tags\..+|identity\..+)$/;

function checkAzureField(
  field: unknown,
  path: PathPart[],
  aliases: ReadonlySet<string>,
  issues: Issue[],
): void {
  if (typeof field !== "string" || field.length === 0) {
    issues.push({ path, message: "field must be a non-empty string" });
    return;
  }
  if (field.startsWith("[")) return; // an expression, resolved at evaluation time
  if (AZURE_PLAIN_FIELDS.test(field)) return;
  if (!aliases.has(field)) {
    issues.push({ path, message: `alias ${field} is not declared in catalogue/azure-aliases.yaml` });
  }
}

export function checkAzureExpression(
  value: unknown,
  path: PathPart[],
  aliases: ReadonlySet<string>,
  issues: Issue[],
  allowLogical: boolean,
): void {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    issues.push({ path, message: "expected an Azure policy condition object" });
    return;
  }
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  const logical = keys.filter((key) => AZURE_LOGICAL.has(key));
  if (logical.length > 0) {
    if (!allowLogical) {
      issues.push({
        path: [...path, logical[0]!],
        message: "an atomic node is one condition; express allOf/anyOf/not with a junction",
      });
      return;
    }
    if (keys.length !== 1) {
      issues.push({ path, message: `${logical[0]} must be the only key of its object` });
      return;
    }
    const operand = record[logical[0]!];
    if (logical[0] === "not") checkAzureExpression(operand, [...path, "not"], aliases, issues, true);
    else if (!Array.isArray(operand) || operand.length === 0) {
      issues.push({ path: [...path, logical[0]!], message: "expected a non-empty list of conditions" });
    } else {
      operand.forEach((item, index) => {
        checkAzureExpression(item, [...path, logical[0]!, index], aliases, issues, true);
      });
    }
    return;
  }
  const operands: string[] = keys.filter((key) => key === "field" || key === "value" || key === "count");
  const operators = keys.filter((key) => AZURE_OPERATORS.has(key));
  const unknown = keys.filter((key) => !operands.includes(key) && !operators.includes(key));
  if (unknown.length > 0) {
    issues.push({
      path: [...path, unknown[0]!],
      message: `unknown key; expected field, value or count and one of ${CONDITION_NAMES.join(", ")}`,
    });
    return;
  }
  if (operands.length !== 1) {
    issues.push({ path, message: "a condition needs exactly one of field, value or count" });
    return;
  }
  if (operators.length !== 1) {
    issues.push({
      path,
      message: `a condition needs exactly one operator (${CONDITION_NAMES.join(", ")})`,
    });
    return;
  }
  if (operands[0] === "field") checkAzureField(record.field, [...path, "field"], aliases, issues);
  if (operands[0] === "count") {
    const count = record.count as Record<string, unknown> | undefined;
    if (!count || typeof count !== "object") {
      issues.push({ path: [...path, "count"], message: "expected an object with field or value" });
      return;
    }
    const countKeys = Object.keys(count);
    const extra = countKeys.filter((key) => !["field", "value", "name", "where"].includes(key));
    if (extra.length > 0)
      issues.push({ path: [...path, "count", extra[0]!], message: "unknown key in count" });
    if ("field" in count === "value" in count) {
      issues.push({ path: [...path, "count"], message: "count needs exactly one of field or value" });
    }
    if ("field" in count) {
      checkAzureField(count.field, [...path, "count", "field"], aliases, issues);
      if (typeof count.field === "string" && !count.field.endsWith("[*]")) {
        issues.push({
          path: [...path, "count", "field"],
          message: "a counted field must be an array alias ending in [*]",
        });
      }
    }
    if ("where" in count)
      checkAzureExpression(count.where, [...path, "count", "where"], aliases, issues, true);
  }
}
