import { waiverPrincipalPattern } from "../../principals/principal-arn";
import { type ActiveWaiver, CompileError } from "../compile-input";
import { type Condition, conjoin, type Statement, sameSet, union } from "./scp-statement";

export interface Exclusions {
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

export function emptyExclusions(): Exclusions {
  return { principals: [], accounts: [], orgPaths: [], resources: [], everything: false };
}

export function addScope(exclusions: Exclusions, scope: string, what: string): void {
  if (ACCOUNT.test(scope)) exclusions.accounts.push(scope);
  else if (OU.test(scope)) exclusions.orgPaths.push(`*/${scope}/*`);
  else if (ROOT.test(scope)) exclusions.everything = true;
  else if (PRINCIPAL.test(scope)) exclusions.principals.push(waiverPrincipalPattern(scope));
  else
    throw new CompileError(
      "PARSE_WAIVER_SCOPE_FAILED",
      `${what}: ${scope} is not an AWS account id, OU id, root id or principal ARN`,
    );
}

export function addWaiver(exclusions: Exclusions, waiver: ActiveWaiver): void {
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
    // aws:PrincipalArn of a role session is its role's ARN, so a waiver names the role.
    exclusions.principals.push(waiverPrincipalPattern(waiver.principalArn));
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
export function exclude(statement: Statement, exclusions: Exclusions, slug: string): Statement | undefined {
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
