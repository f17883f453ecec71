import { compileConditionBlock, parseConditionOperator } from "./condition-operators";
import type { ConditionBlock } from "./iam-policy-document";

export interface ScpValidationError {
  /** Where in the document, e.g. `Statement[1].Condition.StringEquals`. */
  path: string;
  message: string;
}

export interface ScpValidationResult {
  valid: boolean;
  errors: ScpValidationError[];
}

const DOCUMENT_KEYS = new Set(["Version", "Id", "Statement"]);
const STATEMENT_KEYS = new Set([
  "Sid",
  "Effect",
  "Action",
  "NotAction",
  "Resource",
  "NotResource",
  "Condition",
]);
const ACTION_PATTERN = /^(\*|[A-Za-z0-9*?-]+:[A-Za-z0-9*?]+)$/;
const SID_PATTERN = /^[A-Za-z0-9]*$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * The services whose actions resource control policies govern
 * (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps.html#rcp-supported-services):
 * S3, STS, KMS, SQS and Secrets Manager at launch, then ECR, OpenSearch Serverless, Cognito and
 * CloudWatch Logs. A document naming another service is refused (stricter than accepting it).
 */
export const RCP_SERVICES = new Set([
  "s3",
  "sts",
  "kms",
  "sqs",
  "secretsmanager",
  "ecr",
  "aoss",
  "cognito-idp",
  "cognito-identity",
  "logs",
]);

export type OrganizationPolicyKind = "scp" | "rcp";

/**
 * Checks a document against the IAM policy grammar as Organizations accepts it, the way AWS answers
 * MalformedPolicyDocumentException. Service control policies have no Principal/NotPrincipal.
 * Resource control policies (https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_rcps_syntax.html)
 * have Version "2012-10-17", Deny statements only (Allow is reserved to the AWS-managed
 * RCPFullAWSAccess), `Principal: "*"` in every statement, no NotPrincipal and no NotAction, and
 * actions of the supported services only.
 */
export function validateScpDocument(
  document: unknown,
  kind: OrganizationPolicyKind = "scp",
): ScpValidationResult {
  const errors: ScpValidationError[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message });
  let parsed = document;
  if (typeof document === "string") {
    try {
      parsed = JSON.parse(document);
    } catch {
      fail("", "Syntax errors in policy: the document is not valid JSON");
      return { valid: false, errors };
    }
  }
  if (!isObject(parsed)) {
    fail("", "The policy document must be a JSON object");
    return { valid: false, errors };
  }
  for (const key of Object.keys(parsed)) {
    if (!DOCUMENT_KEYS.has(key)) fail(key, `Unknown policy element ${key}`);
  }
  if (kind === "rcp") {
    if (parsed.Version !== "2012-10-17")
      fail("Version", 'A resource control policy must have Version "2012-10-17"');
  } else if (
    parsed.Version !== undefined &&
    parsed.Version !== "2012-10-17" &&
    parsed.Version !== "2008-10-17"
  ) {
    fail("Version", 'Version must be "2012-10-17" or "2008-10-17"');
  }
  const rawStatements = parsed.Statement;
  if (rawStatements === undefined) fail("Statement", "The policy must contain a Statement");
  const statements = Array.isArray(rawStatements)
    ? rawStatements
    : rawStatements === undefined
      ? []
      : [rawStatements];
  if (Array.isArray(rawStatements) && rawStatements.length === 0)
    fail("Statement", "Statement must not be empty");
  const sids = new Set<string>();
  statements.forEach((statement, index) => {
    const at = Array.isArray(rawStatements) ? `Statement[${index}]` : "Statement";
    if (!isObject(statement)) {
      fail(at, "A statement must be a JSON object");
      return;
    }
    if (kind === "rcp") validateRcpStatement(statement, at, sids, fail);
    else validateStatement(statement, at, sids, fail);
  });
  return { valid: errors.length === 0, errors };
}

function validateStatement(
  statement: Record<string, unknown>,
  at: string,
  sids: Set<string>,
  fail: (path: string, message: string) => void,
) {
  for (const key of Object.keys(statement)) {
    if (key === "Principal" || key === "NotPrincipal") {
      fail(`${at}.${key}`, `Service control policies do not support ${key}`);
    } else if (!STATEMENT_KEYS.has(key)) fail(`${at}.${key}`, `Unknown statement element ${key}`);
  }
  if (statement.Sid !== undefined) {
    if (typeof statement.Sid !== "string" || !SID_PATTERN.test(statement.Sid)) {
      fail(`${at}.Sid`, "Sid may contain only ASCII letters and digits");
    } else if (sids.has(statement.Sid)) fail(`${at}.Sid`, `Duplicate Sid ${statement.Sid}`);
    else sids.add(statement.Sid);
  }
  if (statement.Effect !== "Allow" && statement.Effect !== "Deny") {
    fail(`${at}.Effect`, 'Effect must be "Allow" or "Deny"');
  }
  validatePair(statement, at, "Action", "NotAction", fail, (value) =>
    ACTION_PATTERN.test(value) ? undefined : `Action ${value} must be "*" or "<service>:<action>"`,
  );
  validatePair(statement, at, "Resource", "NotResource", fail, (value) =>
    value === "*" || value.startsWith("arn:") ? undefined : `Resource ${value} must be "*" or an ARN`,
  );
  if (statement.Condition !== undefined) validateCondition(statement.Condition, `${at}.Condition`, fail);
}

function validateRcpStatement(
  statement: Record<string, unknown>,
  at: string,
  sids: Set<string>,
  fail: (path: string, message: string) => void,
) {
  const { Principal, NotAction, ...rest } = statement;
  if (Principal !== "*") fail(`${at}.Principal`, 'A resource control policy must have Principal "*"');
  if (NotAction !== undefined) fail(`${at}.NotAction`, "Resource control policies do not support NotAction");
  if (statement.Effect === "Allow")
    fail(
      `${at}.Effect`,
      "Resource control policies support Deny only (Allow is reserved to RCPFullAWSAccess)",
    );
  validateStatement(rest, at, sids, fail);
  for (const action of toStrings(statement.Action)) {
    const service = action.split(":")[0]?.toLowerCase() ?? "";
    if (action !== "*" && !RCP_SERVICES.has(service))
      fail(`${at}.Action`, `Resource control policies do not support the service of ${action}`);
  }
}

function toStrings(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === "string");
}

function validatePair(
  statement: Record<string, unknown>,
  at: string,
  element: string,
  negated: string,
  fail: (path: string, message: string) => void,
  checkValue: (value: string) => string | undefined,
) {
  const hasElement = statement[element] !== undefined;
  const hasNegated = statement[negated] !== undefined;
  if (hasElement && hasNegated) fail(at, `A statement cannot contain both ${element} and ${negated}`);
  if (!hasElement && !hasNegated) fail(at, `A statement must contain ${element} or ${negated}`);
  for (const name of [element, negated]) {
    const raw = statement[name];
    if (raw === undefined) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length === 0) fail(`${at}.${name}`, `${name} must not be empty`);
    for (const value of values) {
      if (typeof value !== "string" || value === "") {
        fail(`${at}.${name}`, `${name} values must be non-empty strings`);
        continue;
      }
      const problem = checkValue(value);
      if (problem) fail(`${at}.${name}`, problem);
    }
  }
}

function validateCondition(condition: unknown, at: string, fail: (path: string, message: string) => void) {
  if (!isObject(condition)) {
    fail(at, "Condition must be a JSON object");
    return;
  }
  for (const [operator, keys] of Object.entries(condition)) {
    const path = `${at}.${operator}`;
    if (!parseConditionOperator(operator)) {
      fail(path, `Unknown condition operator ${operator}`);
      continue;
    }
    if (!isObject(keys) || Object.keys(keys).length === 0) {
      fail(path, "A condition operator must map at least one condition key to values");
      continue;
    }
    let wellFormed = true;
    for (const [key, value] of Object.entries(keys)) {
      const values = Array.isArray(value) ? value : [value];
      if (key.trim() === "") {
        fail(path, "Condition keys must not be empty");
        wellFormed = false;
      }
      if (values.length === 0 || !values.every(isScalar)) {
        fail(`${path}.${key}`, "Condition values must be strings, numbers or booleans");
        wellFormed = false;
      }
    }
    if (!wellFormed) continue;
    try {
      compileConditionBlock({ [operator]: keys } as ConditionBlock, true);
    } catch (error) {
      fail(path, (error as Error).message);
    }
  }
}
