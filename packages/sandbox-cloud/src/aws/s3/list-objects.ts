import type { SandboxResponse } from "../../http/types";
import type { S3Objects } from "./s3-objects";
import { elements, invalidArgument, S3_XMLNS, xmlResult } from "./s3-xml";

const MAX_KEYS = 1000;

/** `encoding-type=url`: keys and prefixes URL-encoded in the answer, `/` kept (the AWS CLI asks for it). */
const urlEncode = (s: string) => encodeURIComponent(s).replace(/%2F/g, "/");

function decodeToken(token: string): string {
  const decoded = Buffer.from(token, "base64url").toString();
  if (!token || !decoded.startsWith("k:")) {
    throw invalidArgument("The continuation token provided is incorrect", "continuation-token", token);
  }
  return decoded.slice(2);
}

/**
 * ListObjectsV2 (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html): keys in
 * UTF-8 binary order after `start-after` or the continuation token, those under `prefix`, keys
 * sharing the part up to the next `delimiter` rolled up into one CommonPrefix, at most `max-keys`
 * (1,000 at most) entries counting both, `KeyCount` the number returned, `IsTruncated` and
 * `NextContinuationToken` while more remain.
 */
export function listObjectsV2(objects: S3Objects, bucket: string, query: URLSearchParams): SandboxResponse {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const startAfter = query.get("start-after") ?? undefined;
  const token = query.get("continuation-token") ?? undefined;
  const encoding = query.get("encoding-type") ?? undefined;
  if (encoding !== undefined && encoding !== "url") {
    throw invalidArgument("Invalid Encoding Method specified in Request", "encoding-type", encoding);
  }
  const maxKeysText = query.get("max-keys");
  const maxKeys = maxKeysText === null ? MAX_KEYS : Number(maxKeysText);
  if (!/^\d+$/.test(maxKeysText ?? "0") || !Number.isSafeInteger(maxKeys)) {
    throw invalidArgument(
      "Provided max-keys not an integer or within integer range",
      "max-keys",
      String(maxKeysText),
    );
  }
  const limit = Math.min(maxKeys, MAX_KEYS);
  // The token names the last key or common prefix returned; StartAfter counts only on the first page.
  const marker = token !== undefined ? decodeToken(token) : startAfter;
  const skipUnder = token !== undefined && delimiter && marker?.endsWith(delimiter) ? marker : undefined;

  const contents: string[] = [];
  const prefixes: string[] = [];
  let last: string | undefined;
  let truncated = false;
  for (const key of objects.keys(bucket)) {
    if (!key.startsWith(prefix)) continue;
    if (marker !== undefined && Buffer.compare(Buffer.from(key), Buffer.from(marker)) <= 0) continue;
    if (skipUnder && key.startsWith(skipUnder)) continue;
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const common = cut >= 0 ? key.slice(0, cut + delimiter.length) : undefined;
    if (common !== undefined && common === prefixes[prefixes.length - 1]) continue;
    if (contents.length + prefixes.length >= limit) {
      truncated = limit > 0;
      break;
    }
    if (common !== undefined) {
      prefixes.push(common);
      last = common;
    } else {
      contents.push(key);
      last = key;
    }
  }
  const enc = (s: string) => (encoding === "url" ? urlEncode(s) : s);
  const body = [
    `<ListBucketResult xmlns="${S3_XMLNS}">`,
    elements([
      ["Name", bucket],
      ["Prefix", enc(prefix)],
      ["Delimiter", delimiter ? enc(delimiter) : undefined],
      ["MaxKeys", limit],
      ["EncodingType", encoding],
      ["KeyCount", contents.length + prefixes.length],
      ["ContinuationToken", token],
      [
        "NextContinuationToken",
        truncated && last ? Buffer.from(`k:${last}`).toString("base64url") : undefined,
      ],
      ["StartAfter", startAfter !== undefined ? enc(startAfter) : undefined],
      ["IsTruncated", truncated],
    ]),
    ...contents.map((key) => {
      const meta = objects.head(bucket, key)!;
      return `<Contents>${elements([
        ["Key", enc(key)],
        ["LastModified", meta.lastModified],
        ["ETag", meta.etag],
        ["Size", meta.size],
        ["StorageClass", "STANDARD"],
      ])}</Contents>`;
    }),
    ...prefixes.map((p) => `<CommonPrefixes>${elements([["Prefix", enc(p)]])}</CommonPrefixes>`),
    "</ListBucketResult>",
  ].join("");
  return xmlResult(body);
}
