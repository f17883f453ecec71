import { randomBytes, randomUUID } from "node:crypto";
import { performAws } from "../enforce/aws-request";
import type { SandboxRequest, SandboxResponse } from "../http/types";
import type { AwsResource, AwsState } from "../state/model";
import type { StateStore } from "../state/store";
import { AwsError, authenticateAws } from "./common";
import { uniqueId } from "./identity";
import { elements } from "./s3/s3-xml";
import { scpDenialError } from "./service-errors";
import { type WireCaller, wireCaller } from "./wire-caller";

/**
 * IAM on its Query protocol (https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateUser.html,
 * API_CreateAccessKey.html): the calls the catalogue's guardrails govern, authorised by the SCPs in
 * force and recorded in CloudTrail (in us-east-1, as IAM's events are).
 */
const XMLNS = "https://iam.amazonaws.com/doc/2010-05-08/";

/**
 * IAM's Query error (https://docs.aws.amazon.com/IAM/latest/APIReference/CommonErrors.html):
 * `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>`.
 */
export function iamError(err: AwsError): SandboxResponse {
  return {
    status: err.status,
    headers: { "content-type": "text/xml", "x-amzn-requestid": randomUUID() },
    body: `<ErrorResponse xmlns="${XMLNS}"><Error>${elements([
      ["Type", err.status >= 500 ? "Receiver" : "Sender"],
      ["Code", err.code],
      ["Message", err.message],
    ])}</Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  };
}

function iamResult(action: string, result: string): SandboxResponse {
  return {
    status: 200,
    headers: { "content-type": "text/xml", "x-amzn-requestid": randomUUID() },
    body: `<${action}Response xmlns="${XMLNS}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`,
  };
}

const USER_NAME = /^[\w+=,.@-]{1,64}$/;
const PATH = /^\/(?:[\x21-\x7e]*\/)?$/;
const KEYS_PER_USER = 2;
const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

const seconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** A user of the account, seeded or created through CreateUser; names are unique regardless of case. */
function findUser(aws: AwsState, accountId: string, name: string) {
  const lower = name.toLowerCase();
  const seeded = aws.principals.find(
    (p) => p.kind === "user" && p.accountId === accountId && p.name.toLowerCase() === lower,
  );
  if (seeded) return { arn: seeded.arn, name: seeded.name, path: "/" };
  const created = aws.resources.find(
    (r) => r.type === "AWS::IAM::User" && r.accountId === accountId && r.name.toLowerCase() === lower,
  );
  return created && { arn: created.arn, name: created.name, path: String(created.properties.path ?? "/") };
}

function validationError(field: string, value: string, constraint: string): AwsError {
  return new AwsError(
    "ValidationError",
    `1 validation error detected: Value '${value}' at '${field}' failed to satisfy constraint: ${constraint}`,
  );
}

function createUser(store: StateStore, who: WireCaller, params: URLSearchParams): SandboxResponse {
  const name = params.get("UserName") ?? "";
  const path = params.get("Path") ?? "/";
  if (!USER_NAME.test(name)) {
    throw validationError("userName", name, "Member must satisfy regular expression pattern: [\\w+=,.@-]+");
  }
  if (!PATH.test(path) || path.length > 512) {
    throw validationError(
      "path",
      path,
      "Member must satisfy regular expression pattern: (\\u002F)|(\\u002F[\\u0021-\\u007E]+\\u002F)",
    );
  }
  const arn = `arn:aws:iam::${who.account.id}:user${path}${name}`;
  const outcome = performAws(
    store,
    {
      caller: who.principal,
      account: who.account,
      action: "iam:CreateUser",
      resources: [{ arn }],
      region: who.signed.region,
      context: {},
      accessKeyId: who.signed.accessKeyId,
      userAgent: who.userAgent,
      requestParameters: { userName: name, ...(path !== "/" ? { path } : {}) },
    },
    () => {
      const aws = store.state.aws;
      if (findUser(aws, who.account.id, name)) {
        throw new AwsError("EntityAlreadyExists", `User with name ${name} already exists.`, 409);
      }
      const createDate = seconds(store.now());
      const user: AwsResource = {
        arn,
        type: "AWS::IAM::User",
        accountId: who.account.id,
        region: "us-east-1",
        name,
        properties: { path, createDate },
      };
      aws.resources.push(user);
      const userId = uniqueId("AIDA", arn);
      return {
        result: { userId, createDate },
        changed: user,
        responseElements: { user: { path, userName: name, userId, arn, createDate } },
      };
    },
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  const { userId, createDate } = outcome.result;
  return iamResult(
    "CreateUser",
    `<User>${elements([
      ["Path", path],
      ["UserName", name],
      ["UserId", userId],
      ["Arn", arn],
      ["CreateDate", createDate],
    ])}</User>`,
  );
}

function createAccessKey(store: StateStore, who: WireCaller, params: URLSearchParams): SandboxResponse {
  const aws = store.state.aws;
  const given = params.get("UserName");
  if (given !== null && !USER_NAME.test(given)) {
    throw validationError("userName", given, "Member must satisfy regular expression pattern: [\\w+=,.@-]+");
  }
  // Without a user name, the key is for the user signing the request; a role session has none.
  const name = given ?? (who.principal.kind === "user" ? who.principal.user!.name : undefined);
  if (name === undefined) {
    throw new AwsError("ValidationError", "Must specify userName when calling with non-User credentials");
  }
  const existing = findUser(aws, who.account.id, name);
  const arn = existing?.arn ?? `arn:aws:iam::${who.account.id}:user/${name}`;
  const outcome = performAws(
    store,
    {
      caller: who.principal,
      account: who.account,
      action: "iam:CreateAccessKey",
      resources: [{ arn }],
      region: who.signed.region,
      context: {},
      accessKeyId: who.signed.accessKeyId,
      userAgent: who.userAgent,
      requestParameters: { userName: name },
    },
    () => {
      if (!existing) throw new AwsError("NoSuchEntity", `The user with name ${name} cannot be found.`, 404);
      if (aws.accessKeys.filter((k) => k.principalArn === arn && !k.sessionToken).length >= KEYS_PER_USER) {
        throw new AwsError(
          "LimitExceeded",
          `Cannot exceed quota for AccessKeysPerUser: ${KEYS_PER_USER}`,
          409,
        );
      }
      const key = {
        accessKeyId: `AKIA${[...randomBytes(16)].map((b) => KEY_ALPHABET[b % 32]).join("")}`,
        secretAccessKey: randomBytes(30).toString("base64"),
        principalArn: arn,
      };
      aws.accessKeys.push(key);
      const createDate = seconds(store.now());
      return {
        result: { ...key, createDate, userName: existing.name },
        // The secret is never recorded.
        responseElements: {
          accessKey: { userName: existing.name, accessKeyId: key.accessKeyId, status: "Active", createDate },
        },
      };
    },
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  const key = outcome.result;
  return iamResult(
    "CreateAccessKey",
    `<AccessKey>${elements([
      ["UserName", key.userName],
      ["AccessKeyId", key.accessKeyId],
      ["Status", "Active"],
      ["SecretAccessKey", key.secretAccessKey],
      ["CreateDate", key.createDate],
    ])}</AccessKey>`,
  );
}

/** A Query request to IAM, signed with SigV4 for the service `iam`. */
export function handleIam(store: StateStore, req: SandboxRequest): SandboxResponse {
  try {
    const signed = authenticateAws(store.state.aws, req, new Date(), "query");
    if (signed instanceof AwsError) throw signed;
    const who = wireCaller(store.state.aws, signed, req);
    const params = new URLSearchParams(req.body.toString());
    const action = params.get("Action") ?? "";
    if (action === "CreateUser") return createUser(store, who, params);
    if (action === "CreateAccessKey") return createAccessKey(store, who, params);
    throw new AwsError("InvalidAction", `Could not find operation ${action} for version 2010-05-08`);
  } catch (err) {
    if (err instanceof AwsError) return iamError(err);
    throw err;
  }
}
