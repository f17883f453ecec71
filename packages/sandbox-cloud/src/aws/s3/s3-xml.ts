import { randomBytes, randomUUID } from "node:crypto";
import type { SandboxResponse } from "../../http/types";
import { AwsError } from "../common";

export const S3_XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";

export const xmlEscape = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

/** `<Name>value</Name>` for each defined entry, in order. */
export function elements(entries: [string, string | number | boolean | undefined][]): string {
  return entries
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => `<${name}>${xmlEscape(String(v))}</${name}>`)
    .join("");
}

export function requestHeaders(): Record<string, string> {
  return {
    "x-amz-request-id": randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase(),
    "x-amz-id-2": randomBytes(48).toString("base64"),
  };
}

export function xmlResult(body: string, headers: Record<string, string> = {}): SandboxResponse {
  return {
    status: 200,
    headers: { "content-type": "application/xml", ...requestHeaders(), ...headers },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  };
}

/**
 * An S3 error as https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html shows it:
 * `<Error><Code/><Message/>...<RequestId/><HostId/></Error>`; a HEAD request's error has no body.
 */
export function s3Error(err: AwsError, method: string): SandboxResponse {
  const headers = requestHeaders();
  if (method.toUpperCase() === "HEAD") return { status: err.status, headers };
  const extra = Object.entries(err.extra).map(([k, v]) => [k, String(v)] as [string, string]);
  return {
    status: err.status,
    headers: { "content-type": "application/xml", ...headers },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${elements([
      ["Code", err.code],
      ["Message", err.message],
      ...extra,
      ["RequestId", headers["x-amz-request-id"]],
      ["HostId", headers["x-amz-id-2"]],
    ])}</Error>`,
  };
}

export const noSuchBucket = (bucket: string) =>
  new AwsError("NoSuchBucket", "The specified bucket does not exist", 404, { BucketName: bucket });

export const noSuchKey = (key: string) =>
  new AwsError("NoSuchKey", "The specified key does not exist.", 404, { Key: key });

export const accessDenied = () => new AwsError("AccessDenied", "Access Denied", 403);

export const invalidArgument = (message: string, name: string, value: string) =>
  new AwsError("InvalidArgument", message, 400, { ArgumentName: name, ArgumentValue: value });

export const notImplemented = () =>
  new AwsError("NotImplemented", "A header you provided implies functionality that is not implemented.", 501);

/** The headers of an object answer (GetObject, HeadObject). */
export function objectHeaders(meta: { etag: string; lastModified: string; contentType: string }) {
  return {
    ...requestHeaders(),
    "content-type": meta.contentType,
    etag: meta.etag,
    "last-modified": new Date(meta.lastModified).toUTCString(),
    "accept-ranges": "bytes",
  };
}
