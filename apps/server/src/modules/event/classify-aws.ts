import type { Event } from "@aws-sdk/client-cloudtrail";
import { type ContextValue, evaluatePolicySet } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import {
  type CloudTrailIdentity,
  principalArnOfIdentity,
  waiverCoversPrincipal,
} from "@palisade/policy-engine/principals/principal-arn";
import { cloudTrailEventDetail } from "../../cloud/aws/cloudtrail-events";
import type { AuditRecord } from "../../cloud/cloud-provider";
import { baseEvent, type ClassifyContext, type DeploymentInfo, type WaiverInfo } from "./classify-context";
import type { NewPolicyEvent } from "./policy-event";

// AWS: CloudTrail records of requests that SCPs denied, or would have denied.

interface CloudTrailDetail {
  eventTime?: string;
  eventName?: string;
  eventSource?: string;
  awsRegion?: string;
  userAgent?: string;
  recipientAccountId?: string;
  requestParameters?: Record<string, unknown> | null;
  resources?: { ARN?: string; accountId?: string; type?: string }[];
  userIdentity?: CloudTrailIdentity & {
    accountId?: string;
    userName?: string;
    sessionContext?: { sessionIssuer?: { userName?: string } };
  };
  errorCode?: string;
  errorMessage?: string;
}

export function cloudTrailDetail(raw: unknown): CloudTrailDetail {
  if (typeof (raw as { CloudTrailEvent?: unknown } | null)?.CloudTrailEvent === "string")
    return cloudTrailEventDetail(raw as Event) as CloudTrailDetail;
  return (raw as CloudTrailDetail) ?? {};
}

const SCP_IN_MESSAGE =
  /service control policy: (arn:aws:organizations::\d*:policy\/[^\s/]+\/service_control_policy\/(p-[0-9a-z]+))/i;

/** The IAM request a CloudTrail record stands for, with the condition keys AWS would have set. */
export function iamRequestOf(record: AuditRecord, detail: CloudTrailDetail) {
  // aws:PrincipalArn of a role session is its role's ARN, the session's issuer.
  const principalArn = principalArnOfIdentity(detail.userIdentity ?? {}, record.principal ?? "");
  const account = detail.recipientAccountId ?? detail.userIdentity?.accountId ?? record.scopeId ?? "";
  const context: Record<string, ContextValue> = {};
  for (const [key, value] of Object.entries(detail.requestParameters ?? {})) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      context[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === "string"))
      context[key] = value as string[];
  }
  const time = record.time;
  Object.assign(context, {
    "aws:PrincipalArn": principalArn,
    "aws:PrincipalAccount": account,
    "aws:PrincipalType": detail.userIdentity?.type === "IAMUser" ? "User" : "AssumedRole",
    "aws:RequestedRegion": detail.awsRegion ?? "us-east-1",
    "aws:CurrentTime": time.toISOString().replace(/\.\d{3}Z$/, "Z"),
    "aws:EpochTime": String(Math.floor(time.getTime() / 1000)),
    "aws:SecureTransport": "true",
    "aws:ViaAWSService": "false",
  });
  const resource = detail.resources?.[0]?.ARN ?? "*";
  return { action: record.action, resource, principalArn, context, account };
}

function awsResourceFields(detail: CloudTrailDetail, account: string, consoleLinks: boolean) {
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

function awsUserFields(detail: CloudTrailDetail, record: AuditRecord) {
  const identity = detail.userIdentity ?? {};
  const arn = identity.arn ?? record.principal ?? "";
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

function awsWaiverApplies(w: WaiverInfo, at: Date, request: ReturnType<typeof iamRequestOf>, path: string[]) {
  if (w.from.getTime() > at.getTime() || w.until.getTime() <= at.getTime()) return false;
  if (w.principalArn) return waiverCoversPrincipal(w.principalArn, request.principalArn);
  if (w.resource) return w.resource === request.resource;
  if (w.scope) return path.includes(w.scope);
  return true;
}

export function classifyCloudTrail(record: AuditRecord, ctx: ClassifyContext): NewPolicyEvent[] {
  const detail = cloudTrailDetail(record.raw);
  const request = iamRequestOf(record, detail);
  const path = request.account ? ctx.ancestorsOf(request.account) : [];
  const fields = {
    ...awsResourceFields(detail, request.account, ctx.consoleLinks),
    ...awsUserFields(detail, record),
  };
  const message = record.errorMessage ?? detail.errorMessage ?? "";
  // EC2 records its denials as Client.UnauthorizedOperation
  // (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
  const denied = /AccessDenied|UnauthorizedOperation/i.test(record.errorCode ?? detail.errorCode ?? "");

  if (denied) {
    const match = SCP_IN_MESSAGE.exec(message);
    if (!match) return [];
    const policyId = match[2] as string;
    const candidates = ctx.deployments.filter(
      (d) => d.nativeId && (d.nativeId === policyId || d.nativeId.endsWith(`/${policyId}`)),
    );
    // Guardrails share packed SCPs: the one whose own statements deny the request is the one.
    const onPath = candidates.filter((d) => path.includes(d.scopeExternalId));
    const deployment =
      onPath.find((d) => d.scp && evaluatePolicySet(request, [d.scp]).decision === "explicit_deny") ??
      onPath[0] ??
      candidates[0];
    if (!deployment) return [];
    return [{ ...baseEvent(ctx, record, deployment, "PREVENTION"), ...fields }];
  }

  // Allowed: what would a Palisade SCP have denied? ALERT bundles are never attached, and a
  // PREVENT bundle lets a request through only under a waiver.
  const events: NewPolicyEvent[] = [];
  const seenBundles = new Set<string>();
  for (const deployment of ctx.deployments) {
    if (!deployment.scp || seenBundles.has(deployment.bundleId)) continue;
    if (!awsDeploymentApplies(deployment, path)) continue;
    const decision = evaluatePolicySet(request, [deployment.scp]);
    if (decision.decision !== "explicit_deny") continue;
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
