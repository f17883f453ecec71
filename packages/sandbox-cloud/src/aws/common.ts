import { randomUUID } from "node:crypto";
import { header, json, type SandboxRequest, type SandboxResponse } from "../http/types";
import type { AwsState } from "../state/model";

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

/**
 * Identifies the caller from the SigV4 Authorization header's access key id. The signature itself
 * is not recomputed: the sandbox checks which known key is used and whether it has expired.
 */
export function awsCaller(aws: AwsState, req: SandboxRequest, hostNow: Date): AwsCaller | undefined {
  const auth = header(req, "authorization") ?? "";
  const m = /Credential=([^/,\s]+)\//.exec(auth);
  const keyId = m?.[1];
  if (!keyId) return undefined;
  if (keyId === aws.connector.accessKeyId) {
    return { accessKeyId: keyId, arn: aws.connector.userArn, accountId: aws.managementAccountId };
  }
  const key = aws.accessKeys.find((k) => k.accessKeyId === keyId);
  if (!key) return undefined;
  if (key.expiresAt && new Date(key.expiresAt) <= hostNow) return undefined;
  if (key.sessionToken && header(req, "x-amz-security-token") !== key.sessionToken) return undefined;
  return { accessKeyId: keyId, arn: key.principalArn, accountId: key.principalArn.split(":")[4] ?? "" };
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
