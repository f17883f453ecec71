import { type CloudTrailIdentity, principalArnOfIdentity } from "../../principals/principal-arn";
import type { RecordedCheck, RecordedRequest } from "./evaluate-recorded";
import type { ContextValue } from "./evaluate-scp";

// The IAM request a CloudTrail record stands for. A record carries each API's own
// `requestParameters` (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html),
// not IAM's condition keys: each key the catalogue's guardrails read is derived here from the
// parameters it comes from (the request shapes of botocore's service models), or left unknown,
// so that a guardrail reading it finds the request not evaluable rather than guessing.

/** The fields of a CloudTrail record this reads. */
export interface CloudTrailRecord {
  eventTime?: string;
  eventSource?: string;
  eventName?: string;
  awsRegion?: string;
  sourceIPAddress?: string;
  userAgent?: string;
  recipientAccountId?: string;
  requestParameters?: Record<string, unknown> | null;
  responseElements?: Record<string, unknown> | null;
  additionalEventData?: Record<string, unknown> | null;
  resources?: { ARN?: string; accountId?: string; type?: string }[];
  userIdentity?: {
    type?: string;
    principalId?: string;
    arn?: string;
    accountId?: string;
    userName?: string;
    invokedBy?: string;
    sessionContext?: {
      attributes?: { mfaAuthenticated?: string };
      sessionIssuer?: { type?: string; arn?: string; userName?: string };
      ec2RoleDelivery?: string;
      assumedRoot?: string;
    };
  };
  errorCode?: string;
  errorMessage?: string;
}

/**
 * `aws:PrincipalArn` of the caller: for a role session the role's ARN, not the session's
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn).
 */
export function principalArnOf(identity: CloudTrailRecord["userIdentity"]): string {
  return identity ? principalArnOfIdentity(identity as CloudTrailIdentity) : "";
}

/** IAM's service prefix where it differs from the event source's host name. */
const PREFIX_OF_SOURCE: Record<string, string> = { monitoring: "cloudwatch", "sso-directory": "sso" };

/** `ec2:RunInstances` for `ec2.amazonaws.com` + `RunInstances`. */
export function actionOf(record: CloudTrailRecord): string {
  const host = (record.eventSource ?? "").replace(/\.amazonaws\.com$/, "");
  return `${PREFIX_OF_SOURCE[host] ?? host}:${record.eventName ?? ""}`;
}

/** Keys every record tells (or tells absent), from `userIdentity`, `awsRegion` and `eventTime`. */
export const GLOBAL_KNOWN = [
  "aws:principalarn",
  "aws:principalaccount",
  "aws:principaltype",
  "aws:requestedregion",
  "aws:currenttime",
  "aws:epochtime",
  "aws:securetransport",
  "aws:viaawsservice",
  "aws:multifactorauthpresent",
  "aws:assumedroot",
  "aws:userid",
  "ec2:roledelivery",
];

const PRINCIPAL_TYPE: Record<string, string> = {
  IAMUser: "User",
  AssumedRole: "AssumedRole",
  Root: "Account",
  FederatedUser: "FederatedUser",
};

function globalContext(record: CloudTrailRecord, principalArn: string, account: string) {
  const identity = record.userIdentity ?? {};
  const session = identity.sessionContext;
  const time = new Date(record.eventTime ?? 0);
  const context: Record<string, ContextValue> = {
    "aws:PrincipalArn": principalArn,
    "aws:PrincipalAccount": identity.accountId ?? account,
    "aws:RequestedRegion": record.awsRegion ?? "",
    "aws:CurrentTime": time.toISOString().replace(/\.\d{3}Z$/, "Z"),
    "aws:EpochTime": String(Math.floor(time.getTime() / 1000)),
    // Every AWS API endpoint CloudTrail records is reached over TLS.
    "aws:SecureTransport": "true",
    // `invokedBy` names the service that made the call with the caller's credentials.
    "aws:ViaAWSService": /\.amazonaws\.com$/.test(identity.invokedBy ?? "") ? "true" : "false",
  };
  const type = PRINCIPAL_TYPE[identity.type ?? ""];
  if (type) context["aws:PrincipalType"] = type;
  if (identity.principalId) context["aws:userid"] = identity.principalId;
  // Present for temporary credentials only, as IAM sets it.
  const mfa = session?.attributes?.mfaAuthenticated;
  if (mfa === "true" || mfa === "false") context["aws:MultiFactorAuthPresent"] = mfa;
  if (session?.assumedRoot === "true") context["aws:AssumedRoot"] = "true";
  if (session?.ec2RoleDelivery) context["ec2:RoleDelivery"] = session.ec2RoleDelivery;
  return context;
}

type Params = Record<string, unknown>;
const obj = (v: unknown): Params => (v && typeof v === "object" && !Array.isArray(v) ? (v as Params) : {});
const items = (v: unknown): Params[] => {
  const list = Array.isArray(v) ? v : obj(v).items;
  return Array.isArray(list) ? list.map(obj) : [];
};
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);

/** What an action's parameters tell: its resources' checks, each with the keys it derives. */
interface Derived {
  resource: string | undefined;
  context: Record<string, ContextValue>;
  known: string[];
}
type Mapper = (p: Params, r: { region: string; account: string; record: CloudTrailRecord }) => Derived[];

/** One key: its value where the parameter was given; known absent only where leaving it out means absent. */
function oneKey(name: string, value: ContextValue | undefined, absentIsKnown: boolean) {
  const context: Record<string, ContextValue> = value === undefined ? {} : { [name]: value };
  return { context, known: value !== undefined || absentIsKnown ? [name.toLowerCase()] : [] };
}
const boolText = (v: unknown) => (typeof v === "boolean" ? String(v) : undefined);

/** The ARN a record names for this resource type, in `resources` or in the answer. */
const namedArn = (record: CloudTrailRecord, pattern: RegExp) =>
  record.resources?.map((r) => r.ARN).find((arn) => arn && pattern.test(arn));

function ec2Tags(p: Params, resourceType: string) {
  const tags = items(p.tagSpecificationSet)
    .filter((spec) => spec.resourceType === resourceType)
    .flatMap((spec) => items(spec.tags ?? spec.tagSet));
  const context: Record<string, ContextValue> = {};
  for (const tag of tags) {
    const key = str(tag.key ?? tag.Key);
    if (key) context[`aws:RequestTag/${key}`] = str(tag.value ?? tag.Value) ?? "";
  }
  const keys = Object.keys(context).map((k) => k.slice("aws:RequestTag/".length));
  if (keys.length > 0) context["aws:TagKeys"] = keys;
  return { context, known: ["aws:requesttag/", "aws:tagkeys"] };
}

/** `ec2:RunInstances`: one check for the instance, one for each volume it is launched with. */
const runInstances: Mapper = (p, { region, account }) => {
  const metadata = obj(p.metadataOptions);
  const tags = ec2Tags(p, "instance");
  const context: Record<string, ContextValue> = { ...tags.context };
  const type = str(p.instanceType);
  if (type) context["ec2:InstanceType"] = type;
  const tokens = str(metadata.httpTokens);
  if (tokens) context["ec2:MetadataHttpTokens"] = tokens;
  const hops = str(metadata.httpPutResponseHopLimit);
  if (hops) context["ec2:MetadataHttpPutResponseHopLimit"] = hops;
  const instance: Derived = {
    resource: `arn:aws:ec2:${region}:${account}:instance/*`,
    context,
    // Without a launch template the parameters are the whole launch: what they leave out is absent.
    // A launch template fills in what the record does not show.
    known: p.launchTemplate
      ? []
      : [...tags.known, "ec2:instancetype", "ec2:metadatahttptokens", "ec2:metadatahttpputresponsehoplimit"],
  };
  // A volume's encryption comes from its snapshot or the account's default when the mapping does
  // not set it, and the root volume comes from the image: only an explicit `false` is known.
  const unencrypted = items(p.blockDeviceMapping).some((m) => obj(m.ebs).encrypted === false);
  const volume: Derived = {
    resource: `arn:aws:ec2:${region}:${account}:volume/*`,
    context: unencrypted ? { "ec2:Encrypted": "false" } : {},
    known: unencrypted ? ["ec2:encrypted"] : [],
  };
  return [instance, volume];
};

const createVolume: Mapper = (p, { region, account, record }) => {
  const id = str(obj(record.responseElements).volumeId);
  // Left out, the account's default encryption decides, which the record does not show.
  return [
    {
      resource: `arn:aws:ec2:${region}:${account}:volume/${id ?? "*"}`,
      ...oneKey("ec2:Encrypted", boolText(p.encrypted), false),
    },
  ];
};

/** `ModifyImageAttribute` / `ModifySnapshotAttribute`: the groups added to the permission. */
const sharingAttribute =
  (attribute: string): Mapper =>
  (p) => {
    const groups = items(obj(p[attribute]).add)
      .map((i) => str(i.group))
      .filter((g): g is string => Boolean(g));
    return [
      { resource: undefined, ...oneKey("ec2:Add/group", groups.length > 0 ? groups : undefined, true) },
    ];
  };

const deleteTags: Mapper = (p, { region, account }) => {
  const keys = items(p.tagSet)
    .map((t) => str(t.key))
    .filter((k): k is string => Boolean(k));
  return items(p.resourcesSet).map((r) => {
    const id = str(r.resourceId) ?? "";
    const kind = id.startsWith("i-") ? "instance" : undefined;
    return {
      resource: kind ? `arn:aws:ec2:${region}:${account}:${kind}/${id}` : undefined,
      ...oneKey("aws:TagKeys", keys.length > 0 ? keys : undefined, true),
    };
  });
};

const iamUser: Mapper = (p, { account, record }) => {
  const name =
    str(p.userName) ?? (record.userIdentity?.type === "IAMUser" ? record.userIdentity.userName : "");
  const path = str(p.path) ?? "/";
  const named = namedArn(record, /:user\//);
  // Only CreateUser says the path; other calls name the user, whose path the record omits.
  const resource =
    named ??
    (record.eventName === "CreateUser" && name ? `arn:aws:iam::${account}:user${path}${name}` : undefined);
  return [{ resource, context: {}, known: [] }];
};

const iamRole: Mapper = (p, { account, record }) => {
  const name = str(p.roleName);
  const answered = str(obj(obj(record.responseElements).role).arn);
  const resource =
    namedArn(record, /:role\//) ??
    answered ??
    (record.eventName === "CreateRole" && name
      ? `arn:aws:iam::${account}:role${str(p.path) ?? "/"}${name}`
      : undefined);
  return [{ resource, context: {}, known: [] }];
};

const logGroup: Mapper = (p, { region, account }) => {
  const name = str(p.logGroupName);
  return [
    {
      resource: name ? `arn:aws:logs:${region}:${account}:log-group:${name}` : undefined,
      context: {},
      known: [],
    },
  ];
};

const rds =
  (kind: "db" | "cluster", idParam: string): Mapper =>
  (p, { region, account }) => {
    const id = str(p[idParam]);
    // Left out, the engine's default or the snapshot decides.
    return [
      {
        resource: id ? `arn:aws:rds:${region}:${account}:${kind}:${id}` : undefined,
        ...oneKey("rds:StorageEncrypted", boolText(p.storageEncrypted), false),
      },
    ];
  };

const functionUrl =
  (param: string): Mapper =>
  (p) => [{ resource: undefined, ...oneKey("lambda:FunctionUrlAuthType", str(p[param]), true) }];

/** Left out, RAM's default applies; the record does not say which it was. */
const ramShare: Mapper = (p) => [
  {
    resource: undefined,
    ...oneKey("ram:RequestedAllowsExternalPrincipals", boolText(p.allowExternalPrincipals), false),
  },
];

/** S3 records the encryption applied in `additionalEventData.SSEApplied`. */
const SSE_HEADER: Record<string, Record<string, ContextValue>> = {
  SSE_S3: { "s3:x-amz-server-side-encryption": "AES256" },
  SSE_KMS: { "s3:x-amz-server-side-encryption": "aws:kms" },
  SSE_C: { "s3:x-amz-server-side-encryption-customer-algorithm": "AES256" },
  Default_SSE_S3: {},
  Default_SSE_KMS: {},
};
/** The ACL headers S3 exposes as condition keys, `s3:<header>`. */
export const S3_ACL_KEYS = [
  "x-amz-acl",
  "x-amz-grant-read",
  "x-amz-grant-write",
  "x-amz-grant-read-acp",
  "x-amz-grant-write-acp",
  "x-amz-grant-full-control",
];

const s3Write: Mapper = (p, { record }) => {
  const context: Record<string, ContextValue> = {};
  const known: string[] = [];
  // An ACL header the record shows is known; one it does not show may have been sent all the same.
  for (const header of S3_ACL_KEYS) {
    const value = p[header];
    const text = Array.isArray(value) ? value.map(str).filter(Boolean).join(",") : str(value);
    if (text) {
      context[`s3:${header}`] = text;
      known.push(`s3:${header}`);
    }
  }
  const applied = SSE_HEADER[str(obj(record.additionalEventData).SSEApplied) ?? ""];
  if (applied) {
    Object.assign(context, applied);
    known.push("s3:x-amz-server-side-encryption", "s3:x-amz-server-side-encryption-customer-algorithm");
  }
  const bucket = str(p.bucketName);
  const key = str(p.key);
  const resource = bucket ? (key ? `arn:aws:s3:::${bucket}/${key}` : `arn:aws:s3:::${bucket}`) : undefined;
  return [{ resource, context, known }];
};

/** The actions the catalogue's guardrails read more than the principal and region of. */
const MAPPERS: Record<string, Mapper> = {
  "ec2:runinstances": runInstances,
  "ec2:createvolume": createVolume,
  "ec2:modifyimageattribute": sharingAttribute("launchPermission"),
  "ec2:modifysnapshotattribute": sharingAttribute("createVolumePermission"),
  "ec2:deletetags": deleteTags,
  "iam:createuser": iamUser,
  "iam:createloginprofile": iamUser,
  "iam:createaccesskey": iamUser,
  "logs:deleteloggroup": logGroup,
  "logs:deletelogstream": logGroup,
  "logs:putretentionpolicy": logGroup,
  "logs:deletesubscriptionfilter": logGroup,
  "logs:disassociatekmskey": logGroup,
  "rds:createdbinstance": rds("db", "dBInstanceIdentifier"),
  "rds:createdbcluster": rds("cluster", "dBClusterIdentifier"),
  "lambda:createfunctionurlconfig": functionUrl("authType"),
  "lambda:updatefunctionurlconfig": functionUrl("authType"),
  "lambda:addpermission": functionUrl("functionUrlAuthType"),
  "ram:createresourceshare": ramShare,
  "ram:updateresourceshare": ramShare,
  "s3:createbucket": s3Write,
  "s3:putbucketacl": s3Write,
  "s3:putobject": s3Write,
  "s3:putobjectacl": s3Write,
};

/** Role actions name the role; its ARN is known only where the record gives it. */
const ROLE_ACTION =
  /^iam:(CreateRole|DeleteRole|UpdateAssumeRolePolicy|AttachRolePolicy|DetachRolePolicy|PutRolePolicy|DeleteRolePolicy|PutRolePermissionsBoundary|DeleteRolePermissionsBoundary|UpdateRole|UpdateRoleDescription|TagRole|UntagRole)$/i;

/** Whether the request of `action` is derived from its parameters, not its caller and resource alone. */
export const readsParameters = (action: string): boolean => mapperOf(action) !== undefined;

const mapperOf = (action: string): Mapper | undefined =>
  MAPPERS[action.toLowerCase()] ?? (ROLE_ACTION.test(action) ? iamRole : undefined);

export interface FromCloudTrailOptions {
  /** `aws:PrincipalArn`, when the caller normalises principals its own way. */
  principalArn?: string;
  /** The IAM action, when the caller names it its own way. */
  action?: string;
}

/**
 * The request a CloudTrail record stands for. Each check lists the keys it knows; the
 * guardrails' other keys (principal and resource tags, source VPC, organisation paths) are
 * unknown. A record whose parameters CloudTrail left out (`requestParameters: null` on an API
 * that takes some) knows only the global keys.
 */
export function requestFromCloudTrail(
  record: CloudTrailRecord,
  options: FromCloudTrailOptions = {},
): RecordedRequest {
  const action = options.action ?? actionOf(record);
  const principalArn = options.principalArn ?? principalArnOf(record.userIdentity);
  const account = record.recipientAccountId ?? record.userIdentity?.accountId ?? "";
  const region = record.awsRegion ?? "";
  const global = globalContext(record, principalArn, account);
  const mapper = mapperOf(action);
  const derived: Derived[] = mapper
    ? record.requestParameters
      ? mapper(record.requestParameters, { region, account, record })
      : [{ resource: record.resources?.[0]?.ARN, context: {}, known: [] }]
    : [{ resource: record.resources?.[0]?.ARN, context: {}, known: [] }];
  const checks: RecordedCheck[] = derived.map((d) => ({
    resource: d.resource,
    context: { ...global, ...d.context },
    known: [...GLOBAL_KNOWN, ...d.known],
  }));
  return { action, principalArn, account, checks };
}
