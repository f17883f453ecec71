import { Code, type ConnectError } from "@connectrpc/connect";
import { ProductErrorCode, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import {
  describeWaiverPrincipal,
  evaluatedPrincipalArn,
} from "@palisade/policy-engine/principals/principal-arn";
import { callError, invalidArgument } from "../../rpc/errors";

/** Open (pending or active) waivers one deployment may carry; more would not fit an SCP. */
export const MAX_OPEN_WAIVERS_PER_DEPLOYMENT = 50;
/**
 * A waiver's reason, in characters as a person counts them (grapheme clusters), as the request
 * page counts them: the contract's max_len counts code points, so an emoji joined from several
 * would count more than once there.
 */
export const MAX_COMMENT_CHARACTERS = 220;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export function characterCount(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

export type WaiverStatusName = "PENDING" | "ACTIVE" | "EXPIRED" | "CANCELLED" | "REJECTED";
/** The statuses users see: a stored one, or PROPAGATING (ACTIVE, written, not yet honoured by the cloud). */
export type ReportedStatusName = WaiverStatusName | "PROPAGATING";
export const OPEN_STATUSES: readonly WaiverStatusName[] = ["PENDING", "ACTIVE"];

const statusByName: Record<ReportedStatusName, WaiverStatus> = {
  PENDING: WaiverStatus.PENDING,
  ACTIVE: WaiverStatus.ACTIVE,
  EXPIRED: WaiverStatus.EXPIRED,
  CANCELLED: WaiverStatus.CANCELLED,
  REJECTED: WaiverStatus.REJECTED,
  PROPAGATING: WaiverStatus.PROPAGATING,
};

export function statusOfName(name: string): WaiverStatus {
  return statusByName[name as ReportedStatusName] ?? WaiverStatus.UNSPECIFIED;
}

export function nameOfStatus(status: WaiverStatus): ReportedStatusName | undefined {
  const name = WaiverStatus[status] as ReportedStatusName | undefined;
  return name && name in statusByName ? name : undefined;
}

const transitions: Record<WaiverStatusName, readonly WaiverStatusName[]> = {
  PENDING: ["ACTIVE", "REJECTED", "CANCELLED"],
  ACTIVE: ["EXPIRED", "CANCELLED"],
  EXPIRED: [],
  CANCELLED: [],
  REJECTED: [],
};

/** Why a waiver may not move from `from` to `to`, or undefined when it may. */
export function refusedTransition(from: WaiverStatusName, to: WaiverStatusName): string | undefined {
  if (transitions[from].includes(to)) return undefined;
  const reason =
    transitions[from].length === 0
      ? `${from.toLowerCase()} waivers are final`
      : `a ${from.toLowerCase()} waiver can only become ${transitions[from].join(" or ")}`;
  return `A waiver cannot go from ${from} to ${to}: ${reason}.`;
}

/**
 * The status users see. An approved waiver the cloud has not received (yet, or at all) does not
 * let anything through, so it is never shown as ACTIVE; one it has received but does not honour
 * yet (an Azure exemption propagating) is PROPAGATING.
 */
export function reportedStatus(status: string, deploymentStatus: string): ReportedStatusName {
  if (status === "ACTIVE" && deploymentStatus === "PROPAGATING") return "PROPAGATING";
  if (status === "ACTIVE" && deploymentStatus !== "ACTIVE") return "PENDING";
  return status as WaiverStatusName;
}

export type WaiverTarget =
  | { kind: "scope"; externalId: string }
  | { kind: "resource"; externalId: string }
  | { kind: "principal"; arn: string };

export interface CreateInput {
  key: string;
  durationSeconds: number;
  comment: string;
  target: WaiverTarget | undefined;
}

/** A problem with one field of the request, in the request page's own words. */
function invalid(message: string, field: string): ConnectError {
  return invalidArgument(message, [{ field, message }]);
}

/** A waiver target that cannot be read as a scope, resource or principal (PARSE_WAIVER_SCOPE_FAILED). */
function unreadableTarget(message: string, field: string): ConnectError {
  return callError(Code.InvalidArgument, message, {
    product: ProductErrorCode.PARSE_WAIVER_SCOPE_FAILED,
    fields: [{ field, message }],
  });
}

/** Normalises a policy key as typed: trimmed and upper-case (keys match case-insensitively). */
export function parseKey(raw: string): string {
  const key = raw.trim();
  if (key.length === 0) throw invalid("Policy key is required", "key");
  if (key.length !== POLICY_KEY_LENGTH) throw invalid("Key must be 7 characters long", "key");
  return key.toUpperCase();
}

/** Checks a waiver request field by field, with the request page's own messages. */
export function parseCreateInput(request: {
  key: string;
  duration: bigint;
  comment: string;
  target:
    | { case: "scopeExternalId" | "resourceExternalId" | "principalArn"; value: string }
    | { case: undefined };
}): CreateInput {
  // Lengths and the duration's range (1 to 72 hours) are bounds of the contract, checked before.
  const key = parseKey(request.key);
  const comment = request.comment.trim();
  if (comment.length === 0) throw invalid("Comment is required", "comment");
  if (characterCount(comment) > MAX_COMMENT_CHARACTERS) {
    throw invalid(`comment: must be at most ${MAX_COMMENT_CHARACTERS} characters`, "comment");
  }
  return { key, durationSeconds: Number(request.duration), comment, target: parseTarget(request.target) };
}

function parseTarget(
  target:
    | { case: "scopeExternalId" | "resourceExternalId" | "principalArn"; value: string }
    | { case: undefined },
): WaiverTarget | undefined {
  if (target.case === undefined) return undefined;
  const value = target.value.trim();
  const field = {
    scopeExternalId: "scope_external_id",
    resourceExternalId: "resource_external_id",
    principalArn: "principal_arn",
  }[target.case];
  if (value.length === 0) throw unreadableTarget(`${field} is empty.`, field);
  switch (target.case) {
    case "scopeExternalId":
      if (scopeTypeOf(value) === ScopeType.UNSPECIFIED) {
        throw unreadableTarget(
          `${field} "${value}" is not a scope: give an AWS root, OU or 12-digit account id, or an Azure management group, subscription or resource group id.`,
          field,
        );
      }
      return { kind: "scope", externalId: value };
    case "resourceExternalId":
      if (
        !value.startsWith("arn:") &&
        !/^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/.+/i.test(value)
      ) {
        throw unreadableTarget(`${field} "${value}" is not an AWS ARN or an Azure resource id.`, field);
      }
      return { kind: "resource", externalId: value };
    case "principalArn":
      if (!/^arn:aws[\w-]*:(iam|sts)::\d{12}:.+/.test(value)) {
        throw unreadableTarget(
          `${field} "${value}" is not an IAM principal ARN (arn:aws:iam::<account>:role/<name>).`,
          field,
        );
      }
      // A waiver names the principal as AWS evaluates it: a role session is its role.
      return { kind: "principal", arn: evaluatedPrincipalArn(value) };
  }
}

const MANAGEMENT_GROUP = /^\/providers\/Microsoft\.Management\/managementGroups\/([^/]+)$/i;
const SUBSCRIPTION = /^\/subscriptions\/([^/]+)$/i;
const RESOURCE_GROUP = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)$/i;

export function scopeTypeOf(externalId: string): ScopeType {
  if (/^r-[0-9a-z]{4,32}$/.test(externalId)) return ScopeType.AWS_ORGANIZATION_ROOT;
  if (/^ou-[0-9a-z]{4,32}-[0-9a-z]{8,32}$/.test(externalId)) return ScopeType.AWS_OU;
  if (/^\d{12}$/.test(externalId)) return ScopeType.AWS_ACCOUNT;
  if (MANAGEMENT_GROUP.test(externalId)) return ScopeType.AZURE_MANAGEMENT_GROUP;
  if (SUBSCRIPTION.test(externalId)) return ScopeType.AZURE_SUBSCRIPTION;
  if (RESOURCE_GROUP.test(externalId)) return ScopeType.AZURE_RESOURCE_GROUP;
  return ScopeType.UNSPECIFIED;
}

/** Where a waiver applies, in words, e.g. "Account 111122223333". */
export function describeTarget(target: WaiverTarget): string {
  if (target.kind === "principal") return `Principal ${target.arn} (${describeWaiverPrincipal(target.arn)})`;
  if (target.kind === "resource") return `Resource ${target.externalId}`;
  const id = target.externalId;
  switch (scopeTypeOf(id)) {
    case ScopeType.AWS_ORGANIZATION_ROOT:
      return `Organization root ${id}`;
    case ScopeType.AWS_OU:
      return `Organizational unit ${id}`;
    case ScopeType.AWS_ACCOUNT:
      return `Account ${id}`;
    case ScopeType.AZURE_MANAGEMENT_GROUP:
      return `Management group ${id.match(MANAGEMENT_GROUP)?.[1]}`;
    case ScopeType.AZURE_SUBSCRIPTION:
      return `Subscription ${id.match(SUBSCRIPTION)?.[1]}`;
    case ScopeType.AZURE_RESOURCE_GROUP: {
      const [, subscription, group] = id.match(RESOURCE_GROUP) ?? [];
      return `Resource group ${group} (subscription ${subscription})`;
    }
    default:
      return `Scope ${id}`;
  }
}

/**
 * The scopes that contain a waiver's target, innermost first: the target's own scope id, then
 * (Azure) the enclosing resource group and subscription, or (AWS) the account in an ARN. AWS
 * OUs and roots above an account come from the connector's hierarchy, not from the id.
 */
export function enclosingScopes(target: WaiverTarget): string[] {
  const id = target.kind === "principal" ? target.arn : target.externalId;
  if (id.startsWith("arn:")) {
    const account = id.split(":")[4];
    return account && /^\d{12}$/.test(account) ? [account] : [];
  }
  const scopes = [id];
  const azure = id.match(/^(\/subscriptions\/[^/]+)(\/resourceGroups\/[^/]+)?/i);
  if (azure?.[1]) {
    if (azure[2] && `${azure[1]}${azure[2]}`.toLowerCase() !== id.toLowerCase())
      scopes.push(`${azure[1]}${azure[2]}`);
    if (azure[1].toLowerCase() !== id.toLowerCase()) scopes.push(azure[1]);
  }
  return scopes;
}

/** Waivers the cloud should enforce now: approved and unexpired. */
export function isEnforceable(waiver: { status: string; expiresAt: Date | null }, now: Date): boolean {
  return (
    waiver.status === "ACTIVE" && waiver.expiresAt !== null && waiver.expiresAt.getTime() > now.getTime()
  );
}
