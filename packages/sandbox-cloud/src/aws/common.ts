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
  /** The region of the request's credential scope: the endpoint's region as the caller signed it. */
  region: string;
}

/** The wire protocols of the services the sandbox serves; each names authentication failures its own way. */
export type AwsProtocol = "query" | "json" | "rest-xml";

const MAX_SKEW_MS = 15 * 60_000;

type AuthFailure = "missing" | "unknownKey" | "badToken" | "expired" | "skewed" | "signature";

const SIGNATURE_MISMATCH =
  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.";

/**
 * Each protocol's codes for a refused signature: the query and JSON services' common errors
 * (https://docs.aws.amazon.com/STS/latest/APIReference/CommonErrors.html) and S3's
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html).
 */
function authError(protocol: AwsProtocol, failure: AuthFailure): AwsError {
  const expired = "The security token included in the request is expired";
  const invalid = "The security token included in the request is invalid.";
  const skew = "Signature expired: the request time is more than 15 minutes from the server time.";
  if (protocol === "rest-xml") {
    switch (failure) {
      case "missing":
        return new AwsError("AccessDenied", "Access Denied", 403);
      case "unknownKey":
        return new AwsError(
          "InvalidAccessKeyId",
          "The AWS Access Key Id you provided does not exist in our records.",
          403,
        );
      case "badToken":
        return new AwsError("InvalidToken", "The provided token is malformed or otherwise invalid.", 400);
      case "expired":
        return new AwsError("ExpiredToken", "The provided token has expired.", 400);
      case "skewed":
        return new AwsError(
          "RequestTimeTooSkewed",
          "The difference between the request time and the current time is too large.",
          403,
        );
      case "signature":
        return new AwsError(
          "SignatureDoesNotMatch",
          "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
          403,
        );
    }
  }
  const query = protocol === "query";
  switch (failure) {
    case "missing":
      return query
        ? new AwsError("MissingAuthenticationToken", "Request is missing Authentication Token", 403)
        : new AwsError("MissingAuthenticationTokenException", "Missing Authentication Token", 400);
    case "unknownKey":
    case "badToken":
      return query
        ? new AwsError("InvalidClientTokenId", invalid, 403)
        : new AwsError("UnrecognizedClientException", invalid, 400);
    case "expired":
      return new AwsError(query ? "ExpiredToken" : "ExpiredTokenException", expired, query ? 403 : 400);
    case "skewed":
    case "signature":
      return new AwsError(
        query ? "SignatureDoesNotMatch" : "InvalidSignatureException",
        failure === "skewed" ? skew : SIGNATURE_MISMATCH,
        query ? 403 : 400,
      );
  }
}

/**
 * Authenticates a SigV4-signed call: the access key must exist and be unexpired (session keys with
 * their token), the request time within 15 minutes of the host clock, and the signature must match.
 */
export function authenticateAws(
  aws: AwsState,
  req: SandboxRequest,
  hostNow: Date,
  protocol: AwsProtocol,
): AwsCaller | AwsError {
  const auth = parseAuthorization(header(req, "authorization"));
  if (!auth) return authError(protocol, "missing");
  let secret: string;
  let arn: string;
  if (auth.accessKeyId === aws.connector.accessKeyId) {
    secret = aws.connector.secretAccessKey;
    arn = aws.connector.userArn;
  } else {
    const key = aws.accessKeys.find((k) => k.accessKeyId === auth.accessKeyId);
    if (!key) return authError(protocol, "unknownKey");
    if (key.expiresAt && new Date(key.expiresAt) <= hostNow) return authError(protocol, "expired");
    if (key.sessionToken && header(req, "x-amz-security-token") !== key.sessionToken)
      return authError(protocol, "badToken");
    secret = key.secretAccessKey;
    arn = key.principalArn;
  }
  const amzDate = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(header(req, "x-amz-date") ?? "");
  const signedAt = amzDate
    ? Date.UTC(+amzDate[1]!, +amzDate[2]! - 1, +amzDate[3]!, +amzDate[4]!, +amzDate[5]!, +amzDate[6]!)
    : Number.NaN;
  if (!(Math.abs(signedAt - hostNow.getTime()) <= MAX_SKEW_MS)) return authError(protocol, "skewed");
  if (!signatureMatches(req, auth, secret)) return authError(protocol, "signature");
  return { accessKeyId: auth.accessKeyId, arn, accountId: arn.split(":")[4] ?? "", region: auth.region };
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
