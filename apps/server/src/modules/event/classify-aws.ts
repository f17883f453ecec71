import type { Event } from "@aws-sdk/client-cloudtrail";
import {
  createRecordedEvaluator,
  type RecordedDecision,
  type RecordedRequest,
} from "@palisade/policy-engine/evaluators/scp/evaluate-recorded";
import type { ScpPolicy } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import {
  type CloudTrailRecord,
  principalArnOf,
  requestFromCloudTrail,
} from "@palisade/policy-engine/evaluators/scp/request-from-cloudtrail";
import { waiverCoversPrincipal } from "@palisade/policy-engine/principals/principal-arn";
import { cloudTrailEventDetail } from "../../cloud/aws/cloudtrail-events";
import type { AuditRecord } from "../../cloud/cloud-provider";
import { baseEvent, type ClassifyContext, type DeploymentInfo, type WaiverInfo } from "./classify-context";
import type { NewPolicyEvent } from "./policy-event";

// AWS: CloudTrail records of requests that SCPs denied, or would have denied.

/** A record as LookupEvents answers it (`CloudTrailEvent` JSON) or as a trail's log file holds it. */
export function cloudTrailDetail(raw: unknown): CloudTrailRecord {
  if (typeof (raw as { CloudTrailEvent?: unknown } | null)?.CloudTrailEvent === "string")
    return cloudTrailEventDetail(raw as Event) as CloudTrailRecord;
  return (raw as CloudTrailRecord) ?? {};
}

/** The caller as guardrails and waivers name it: a role session by its role. */
export function principalOf(detail: CloudTrailRecord, record: AuditRecord): string {
  return principalArnOf(detail.userIdentity) || record.principal || "";
}

/**
 * The error codes of a request refused for its permissions, per service protocol: query APIs
 * (`AccessDenied`), JSON APIs (`AccessDeniedException`), EC2 (`UnauthorizedOperation`, recorded
 * as `Client.UnauthorizedOperation`), SNS (`AuthorizationError`).
 */
const DENIAL_CODE =
  /^(Client\.)?(AccessDenied|AccessDeniedException|UnauthorizedOperation|AuthorizationError|AuthorizationErrorException)$/i;
export const isDenial = (code: string | undefined) => DENIAL_CODE.test(code ?? "");

/**
 * The organisation policy a deny message names. AWS writes SCP and RCP denials alike, "with an
 * explicit deny in a service control policy: <arn>" or "... in a resource control policy: <arn>"
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html).
 */
const ORG_POLICY_IN_MESSAGE =
  /(?:service|resource) control policy: (arn:aws:organizations::\d*:policy\/[^\s/]+\/(?:service|resource)_control_policy\/(p-[0-9a-z]+))/i;
/** The message blames another policy type, or the lack of an SCP allow: not a Palisade deny. */
const OTHER_CAUSE =
  /explicit deny in an? (?!service control|resource control)|no [a-z -]*polic(y|ies) allows?/i;

/**
 * Who refused a request, as far as its message tells: the SCP or RCP it names, "an SCP or RCP"
 * (AWS names the policy only within the same account or organisation,
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html), something
 * else, or nothing (EC2's encoded authorization message).
 */
function denialCause(message: string): { policyId: string } | "unnamed" | "other" {
  const match = ORG_POLICY_IN_MESSAGE.exec(message);
  if (match) return { policyId: match[2] as string };
  if (/explicit deny in a (service|resource) control policy/i.test(message)) return "unnamed";
  return OTHER_CAUSE.test(message) ? "other" : "unnamed";
}

/** The IAM request a CloudTrail record stands for, with the condition keys it tells. */
function deriveRequest(record: AuditRecord, detail: CloudTrailRecord): RecordedRequest {
  const request = requestFromCloudTrail(detail, {
    principalArn: principalOf(detail, record),
    ...(record.action ? { action: record.action } : {}),
  });
  return request.account ? request : { ...request, account: record.scopeId ?? "" };
}

/**
 * Each record's request, derived once however many readers ask for it (classification, the
 * stored requests of the preview), for as long as the record is kept.
 */
const derived = new WeakMap<AuditRecord, RecordedRequest>();
export function requestOf(record: AuditRecord, detail: CloudTrailRecord): RecordedRequest {
  let request = derived.get(record);
  if (!request) {
    request = deriveRequest(record, detail);
    derived.set(record, request);
  }
  return request;
}

/**
 * Whether an allowed request could give an event at `at`: only an ALERT guardrail, or a PREVENT
 * guardrail under a waiver in force then, lets through what it would deny.
 */
function allowedMayRaise(ctx: ClassifyContext, at: Date): boolean {
  if (ctx.deployments.some((d) => d.mode === "ALERT")) return true;
  const t = at.getTime();
  return ctx.waivers.some((w) => w.from.getTime() <= t && t < w.until.getTime());
}

/** The resource the request names for waivers and samples: the first ARN its checks know. */
export const resourceOf = (request: RecordedRequest) =>
  request.checks.find((c) => c.resource && !c.resource.endsWith("/*"))?.resource ?? "*";

/** One evaluator per policy, kept while the policy is: a batch's or a preview's requests share decisions. */
const evaluators = new WeakMap<ScpPolicy, (request: RecordedRequest) => RecordedDecision>();
export function decide(policy: ScpPolicy, request: RecordedRequest): RecordedDecision {
  let evaluate = evaluators.get(policy);
  if (!evaluate) {
    evaluate = createRecordedEvaluator([policy]);
    evaluators.set(policy, evaluate);
  }
  return evaluate(request);
}

const deniedBy = (request: RecordedRequest, d: DeploymentInfo) =>
  d.scp !== undefined && decide(d.scp, request).decision === "explicit_deny";

function awsResourceFields(detail: CloudTrailRecord, account: string, consoleLinks: boolean) {
  const first = detail.resources?.[0];
  if (first?.ARN) {
    const arn = first.ARN;
    return {
      resourceExternalId: arn,
      resourceNativeType: first.type ?? null,
      resourceName: arn.split(/[:/]/).pop() || arn,
      resourceScope: first.accountId ?? account,
      resourceLink: consoleLinks
        ? `https://console.aws.amazon.com/go/view?arn=${encodeURIComponent(arn)}`
        : "",
    };
  }
  // A request without a resource (e.g. a launch that never happened) is about the account.
  return {
    resourceExternalId: account,
    resourceNativeType: "AWS::Organizations::Account",
    resourceName: account,
    resourceScope: account,
    resourceLink: "",
  };
}

function awsUserFields(detail: CloudTrailRecord, record: AuditRecord) {
  const identity = detail.userIdentity ?? {};
  const arn = principalOf(detail, record);
  const name =
    identity.userName ?? identity.sessionContext?.sessionIssuer?.userName ?? arn.split("/").pop() ?? "";
  const viaConsole = /console\.amazonaws\.com|signin\.amazonaws\.com/i.test(detail.userAgent ?? "");
  return {
    userIdentifier: arn,
    userName: name,
    sourceAppIdentifier: detail.userAgent ?? "",
    sourceAppName: viaConsole ? "AWS Management Console" : (detail.userAgent ?? ""),
    // IAM users and console sessions are people; other role sessions are workloads.
    userType: identity.type === "IAMUser" || viaConsole ? ("USER" as const) : ("APPLICATION" as const),
  };
}

function awsDeploymentApplies(d: DeploymentInfo, path: string[]): boolean {
  return path.includes(d.scopeExternalId) && !d.excludedScopes.some((s) => path.includes(s));
}

function awsWaiverApplies(w: WaiverInfo, at: Date, request: RecordedRequest, path: string[]) {
  if (w.from.getTime() > at.getTime() || w.until.getTime() <= at.getTime()) return false;
  if (w.principalArn) return waiverCoversPrincipal(w.principalArn, request.principalArn);
  if (w.resource) return w.resource === resourceOf(request);
  if (w.scope) return path.includes(w.scope);
  return true;
}

/** The Palisade guardrail that refused a denied request, or undefined when none did. */
function denyingDeployment(
  request: RecordedRequest,
  message: string,
  path: string[],
  ctx: ClassifyContext,
): DeploymentInfo | undefined {
  const cause = denialCause(message);
  if (cause === "other") return undefined;
  // Only PREVENT guardrails are attached SCPs (or RCPs); one attached at or above the account
  // applies. The record's account is the one it was delivered to: for a call on a resource, the
  // resource's owner, whose RCPs apply whoever called, from inside the organisation or not.
  const attached = ctx.deployments.filter(
    (d) => d.mode === "PREVENT" && d.nativeId && awsDeploymentApplies(d, path),
  );
  if (cause === "unnamed") return attached.find((d) => deniedBy(request, d));
  const { policyId } = cause;
  const candidates = ctx.deployments.filter(
    (d) => d.nativeId && (d.nativeId === policyId || d.nativeId.endsWith(`/${policyId}`)),
  );
  // Guardrails share packed SCPs: the one whose own statements deny the request is the one; else
  // one whose statements govern the request's action but read what the record does not tell (an
  // RCP's aws:PrincipalOrgID for a caller from outside the organisation) rather than one that
  // could not have denied it.
  const onPath = candidates.filter((d) => path.includes(d.scopeExternalId));
  return (
    onPath.find((d) => deniedBy(request, d)) ??
    onPath.find((d) => d.scp !== undefined && decide(d.scp, request).decision === "not_evaluable") ??
    onPath[0] ??
    candidates[0]
  );
}

export function classifyCloudTrail(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  const detail = cloudTrailDetail(record.raw);
  const denied = isDenial(record.errorCode ?? detail.errorCode);
  if (!denied && !allowedMayRaise(ctx, record.time)) return [];
  const request = requestOf(record, detail);
  // SCPs never restrict the management account: nothing there is a guardrail's doing.
  if (!request.account || request.account === ctx.managementAccountId) return [];
  const path = ctx.ancestorsOf(request.account);
  const fields = {
    ...awsResourceFields(detail, request.account, ctx.consoleLinks),
    ...awsUserFields(detail, record),
  };

  if (denied) {
    const message = record.errorMessage ?? detail.errorMessage ?? "";
    const deployment = denyingDeployment(request, message, path, ctx);
    return deployment ? [{ ...baseEvent(ctx, record, deployment, "PREVENTION"), ...fields }] : [];
  }

  // Allowed: what would a Palisade SCP have denied? ALERT bundles are never attached, and a
  // PREVENT bundle lets a request through only under a waiver. A guardrail that reads what the
  // record does not tell decides nothing: no alert is raised on a guess.
  const events: NewPolicyEvent[] = [];
  const seenBundles = new Set<string>();
  for (const deployment of ctx.deployments) {
    if (seenBundles.has(deployment.bundleId)) continue;
    if (!awsDeploymentApplies(deployment, path) || !deniedBy(request, deployment)) continue;
    seenBundles.add(deployment.bundleId);
    if (deployment.mode === "ALERT") {
      events.push({ ...baseEvent(ctx, record, deployment, "ALERT"), ...fields });
      continue;
    }
    const bundleDeployments = new Set(
      ctx.deployments.filter((d) => d.bundleId === deployment.bundleId).map((d) => d.id),
    );
    const waived = ctx.waivers.some(
      (w) => bundleDeployments.has(w.deploymentId) && awsWaiverApplies(w, record.time, request, path),
    );
    if (waived) events.push({ ...baseEvent(ctx, record, deployment, "WAIVED"), ...fields });
  }
  return events;
}
