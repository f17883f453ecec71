import { randomUUID } from "node:crypto";
import { header, json, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { AwsState } from "../state/model";
import { parseAuthorization, signatureMatches } from "./sigv4";

export class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function awsJson(body: unknown): SandboxResponse {
  return json(200, body, { "content-type": "application/x-amz-json-1.1", "x-amzn-requestid": randomUUID() });
}

export function awsJsonError(err: AwsError): SandboxResponse {
  return json(
    err.status,
    { __type: err.code, Message: err.message, ...err.extra },
    {
      "content-type": "application/x-amz-json-1.1",
      "x-amzn-requestid": randomUUID(),
      "x-amzn-errortype": err.code,
    },
  );
}

export interface AwsCaller {
  accessKeyId: string;
  arn: string;
  accountId: string;
}

const MAX_SKEW_MS = 15 * 60_000;

/**
 * Authenticates a SigV4-signed call: the access key must exist and be unexpired (session keys with
 * their token), the request time within 15 minutes of the host clock, and the signature must match.
 */
export function authenticateAws(
  aws: AwsState,
  req: SandboxRequest,
  hostNow: Date,
  query: boolean,
): AwsCaller | AwsError {
  const invalidToken = query
    ? new AwsError("InvalidClientTokenId", "The security token included in the request is invalid.", 403)
    : new AwsError(
        "UnrecognizedClientException",
        "The security token included in the request is invalid.",
        400,
      );
  const auth = parseAuthorization(header(req, "authorization"));
  if (!auth) {
    return query
      ? new AwsError("MissingAuthenticationToken", "Request is missing Authentication Token", 403)
      : new AwsError("MissingAuthenticationTokenException", "Missing Authentication Token", 400);
  }
  let secret: string;
  let caller: AwsCaller;
  if (auth.accessKeyId === aws.connector.accessKeyId) {
    secret = aws.connector.secretAccessKey;
    caller = {
      accessKeyId: auth.accessKeyId,
      arn: aws.connector.userArn,
      accountId: aws.managementAccountId,
    };
  } else {
    const key = aws.accessKeys.find((k) => k.accessKeyId === auth.accessKeyId);
    if (!key) return invalidToken;
    if (key.expiresAt && new Date(key.expiresAt) <= hostNow) {
      return new AwsError(
        query ? "ExpiredToken" : "ExpiredTokenException",
        "The security token included in the request is expired",
        query ? 403 : 400,
      );
    }
    if (key.sessionToken && header(req, "x-amz-security-token") !== key.sessionToken) return invalidToken;
    secret = key.secretAccessKey;
    caller = {
      accessKeyId: auth.accessKeyId,
      arn: key.principalArn,
      accountId: key.principalArn.split(":")[4] ?? "",
    };
  }
  const amzDate = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(header(req, "x-amz-date") ?? "");
  const signedAt = amzDate
    ? Date.UTC(+amzDate[1]!, +amzDate[2]! - 1, +amzDate[3]!, +amzDate[4]!, +amzDate[5]!, +amzDate[6]!)
    : Number.NaN;
  if (!(Math.abs(signedAt - hostNow.getTime()) <= MAX_SKEW_MS)) {
    return new AwsError(
      query ? "SignatureDoesNotMatch" : "InvalidSignatureException",
      "Signature expired: the request time is more than 15 minutes from the server time.",
      query ? 403 : 400,
    );
  }
  if (!signatureMatches(req, auth, secret)) {
    return new AwsError(
      query ? "SignatureDoesNotMatch" : "InvalidSignatureException",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
      query ? 403 : 400,
    );
  }
  return caller;
}

export function encodeToken(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

export function decodeToken(token: string | undefined, errorCode: string): number {
  if (!token) return 0;
  try {
    const o = (JSON.parse(Buffer.from(token, "base64url").toString()) as { o?: unknown }).o;
    if (typeof o === "number" && Number.isInteger(o) && o >= 0) return o;
  } catch {}
  throw new AwsError(errorCode, "The provided NextToken is not valid.");
}

export function page<T>(
  items: T[],
  input: { NextToken?: string; MaxResults?: number },
  opts: { max: number; invalidCode: string },
): { items: T[]; nextToken?: string } {
  const size = input.MaxResults ?? opts.max;
  if (!Number.isInteger(size) || size < 1 || size > opts.max) {
    throw new AwsError(opts.invalidCode, `MaxResults must be between 1 and ${opts.max}.`);
  }
  const start = decodeToken(input.NextToken, opts.invalidCode);
  const slice = items.slice(start, start + size);
  const next = start + size < items.length ? encodeToken(start + size) : undefined;
  return next ? { items: slice, nextToken: next } : { items: slice };
}
