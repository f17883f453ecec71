import { randomBytes, randomUUID } from "node:crypto";
import { evaluatedPrincipalArn } from "@palisade/policy-engine/principals/principal-arn";
import { resolveCaller, userIdOf } from "../enforce/aws-caller";
import { rcpDenial } from "../enforce/rcp-check";
import type { SandboxResponse } from "../http/types";
import type { StateStore } from "../state/store";
import { type AwsCaller, AwsError } from "./common";
import { uniqueId } from "./identity";
import { recordCloudTrail } from "./trail";

const XMLNS = "https://sts.amazonaws.com/doc/2011-06-15/";

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function xml(action: string, result: string): SandboxResponse {
  return {
    status: 200,
    headers: { "content-type": "text/xml", "x-amzn-requestid": randomUUID() },
    body: `<${action}Response xmlns="${XMLNS}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`,
  };
}

export function stsError(err: AwsError): SandboxResponse {
  const type = err.status >= 500 ? "Receiver" : "Sender";
  return {
    status: err.status,
    headers: { "content-type": "text/xml", "x-amzn-requestid": randomUUID() },
    body: `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${type}</Type><Code>${esc(err.code)}</Code><Message>${esc(err.message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  };
}

interface Statement {
  Effect?: string;
  Principal?: { AWS?: string | string[] } | string;
  Action?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Trust policy check for the subset IAM role trust policies use here: principal match and StringEquals. */
export function trustAllows(
  trustPolicy: string,
  callerArn: string,
  context: Record<string, string | undefined>,
): boolean {
  const doc = JSON.parse(trustPolicy) as { Statement?: Statement | Statement[] };
  const callerAccount = callerArn.split(":")[4];
  return list(doc.Statement).some((s) => {
    if (
      s.Effect !== "Allow" ||
      !list(s.Action).some((a) => a === "sts:AssumeRole" || a === "sts:*" || a === "*")
    ) {
      return false;
    }
    const principals =
      s.Principal === "*" ? ["*"] : list(typeof s.Principal === "object" ? s.Principal.AWS : undefined);
    // A role named as principal trusts its sessions
    // (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html#principal-role-session).
    const session = /^arn:aws:sts::(\d{12}):assumed-role\/([^/]+)\//.exec(callerArn);
    const sessionRole = session ? `arn:aws:iam::${session[1]}:role/${session[2]}` : undefined;
    const principalOk = principals.some(
      (p) =>
        p === "*" ||
        p === callerArn ||
        p === sessionRole ||
        p === `arn:aws:iam::${callerAccount}:root` ||
        p === callerAccount,
    );
    if (!principalOk) return false;
    return Object.entries(s.Condition ?? {}).every(([operator, entries]) =>
      Object.entries(entries).every(([key, expected]) => {
        const actual = context[key.toLowerCase()];
        if (operator === "StringEquals") return actual !== undefined && list(expected).includes(actual);
        if (operator === "StringLike") {
          return actual !== undefined && list(expected).some((e) => globMatch(e, actual));
        }
        return false;
      }),
    );
  });
}

/** IAM's wildcards: `*` any run of characters, `?` one character. */
export function globMatch(pattern: string, value: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${re}$`).test(value);
}

export function handleSts(
  store: StateStore,
  caller: AwsCaller,
  params: URLSearchParams,
  secure = true,
): SandboxResponse {
  const aws = store.state.aws;
  const action = params.get("Action") ?? "";
  if (action === "GetCallerIdentity") {
    // UserId is the aws:userid the caller's requests carry.
    const account = aws.accounts.find((a) => a.id === caller.accountId);
    const resolved = account && resolveCaller(aws, caller.arn, account);
    const userId = (resolved && userIdOf(resolved)) ?? caller.accountId;
    return xml(
      action,
      `<Arn>${esc(caller.arn)}</Arn><UserId>${esc(userId)}</UserId><Account>${caller.accountId}</Account>`,
    );
  }
  if (action !== "AssumeRole")
    throw new AwsError("InvalidAction", `Could not find operation ${action} for version 2011-06-15`);

  const roleArn = params.get("RoleArn") ?? "";
  const sessionName = params.get("RoleSessionName") ?? "";
  const duration = Number(params.get("DurationSeconds") ?? 3600);
  if (!/^[\w+=,.@-]{2,64}$/.test(sessionName)) {
    throw new AwsError(
      "ValidationError",
      "1 validation error detected: Value at 'roleSessionName' failed to satisfy constraint",
    );
  }
  if (!Number.isInteger(duration) || duration < 900 || duration > 43200) {
    throw new AwsError(
      "ValidationError",
      "The requested DurationSeconds exceeds the MaxSessionDuration set for this role.",
    );
  }
  const role = aws.principals.find((p) => p.kind === "role" && p.arn === roleArn);
  const externalId = params.get("ExternalId") ?? undefined;
  const trusted =
    role?.trustPolicy !== undefined &&
    trustAllows(role.trustPolicy, caller.arn, {
      "sts:externalid": externalId,
      "aws:principalarn": evaluatedPrincipalArn(caller.arn),
    });
  // The role's account's RCPs apply to AssumeRole whoever calls; aws:SecureTransport is whether
  // this request came over TLS.
  const byRcp = trusted
    ? rcpDenial(store, {
        callerArn: caller.arn,
        callerAccountId: caller.accountId,
        action: "sts:AssumeRole",
        resource: roleArn,
        region: caller.region,
        secure,
      })
    : undefined;
  const allowed = trusted && byRcp === undefined;
  const denied =
    byRcp?.message ??
    `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`;
  const roleName = roleArn.split("/").pop() ?? "";
  const roleAccount = roleArn.split(":")[4] ?? "";
  const assumedArn = `arn:aws:sts::${roleAccount}:assumed-role/${roleName}/${sessionName}`;
  const assumedRoleId = `${uniqueId("AROA", roleArn)}:${sessionName}`;
  // Recorded in the Region of the STS endpoint called, in the caller's account and, for a role of
  // another account, in the role's as well (https://docs.aws.amazon.com/IAM/latest/UserGuide/cloudtrail-integration.html).
  const event = {
    eventName: "AssumeRole",
    eventSource: "sts.amazonaws.com",
    region: caller.region,
    principalArn: caller.arn,
    accessKeyId: caller.accessKeyId,
    requestParameters: {
      roleArn,
      roleSessionName: sessionName,
      durationSeconds: duration,
      ...(externalId ? { externalId } : {}),
    },
    responseElements: allowed ? { assumedRoleUser: { assumedRoleId, arn: assumedArn } } : null,
    resources: [{ ARN: roleArn, accountId: roleAccount, type: "AWS::IAM::Role" }],
    readOnly: true,
    userAgent: "aws-sdk-js",
    ...(allowed ? {} : { errorCode: "AccessDenied", errorMessage: denied }),
  };
  recordCloudTrail(store, event);
  if (roleAccount !== caller.accountId && aws.accounts.some((a) => a.id === roleAccount)) {
    recordCloudTrail(store, { ...event, recipientAccountId: roleAccount });
  }
  if (!allowed) throw new AwsError("AccessDenied", denied, 403);

  // Credential lifetime follows the host clock: SDK credential caches compare against real time.
  const expiresAt = new Date(Date.now() + duration * 1000).toISOString();
  const key = {
    accessKeyId: `ASIA${randomBytes(10).toString("hex").toUpperCase().slice(0, 16)}`,
    secretAccessKey: randomBytes(30).toString("base64"),
    sessionToken: randomBytes(96).toString("base64"),
    principalArn: assumedArn,
    expiresAt,
  };
  aws.accessKeys = aws.accessKeys.filter((k) => !k.expiresAt || new Date(k.expiresAt).getTime() > Date.now());
  aws.accessKeys.push(key);
  store.changed();
  return xml(
    action,
    `<Credentials><AccessKeyId>${key.accessKeyId}</AccessKeyId><SecretAccessKey>${esc(key.secretAccessKey)}</SecretAccessKey><SessionToken>${esc(key.sessionToken)}</SessionToken><Expiration>${expiresAt}</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>${esc(assumedRoleId)}</AssumedRoleId><Arn>${esc(assumedArn)}</Arn></AssumedRoleUser><PackedPolicySize>0</PackedPolicySize>`,
  );
}
