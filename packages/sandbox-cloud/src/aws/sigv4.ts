import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export interface SignableRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | string;
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A malformed escape is signed as sent, so it fails the signature instead of the request. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function canonicalRequest(req: SignableRequest, signedHeaders: string[], service: string): string {
  // S3 encodes each path segment once, every other service twice:
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
  const encode = service === "s3" ? rfc3986 : (s: string) => rfc3986(rfc3986(s));
  const uri = req.path
    .split("/")
    .map((segment) => encode(decodeSegment(segment)))
    .join("/");
  const query = [...req.query.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headerValue = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v.join(",") : (v ?? "")).trim().replace(/\s+/g, " ");
  };
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${headerValue(h)}\n`).join("");
  const payload = headerValue("x-amz-content-sha256") || sha256(req.body);
  return [req.method, uri || "/", query, canonicalHeaders, signedHeaders.join(";"), payload].join("\n");
}

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
}

export interface ParsedAuthorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

export function parseAuthorization(header: string | undefined): ParsedAuthorization | undefined {
  const m =
    /^AWS4-HMAC-SHA256\s+Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]+)$/.exec(
      header?.trim() ?? "",
    );
  if (!m) return undefined;
  return {
    accessKeyId: m[1]!,
    date: m[2]!,
    region: m[3]!,
    service: m[4]!,
    signedHeaders: m[5]!.split(";"),
    signature: m[6]!,
  };
}

/** Signature Version 4 as the AWS SDKs compute it for JSON and query protocol calls. */
export function computeSignature(
  req: SignableRequest,
  auth: Omit<ParsedAuthorization, "signature">,
  secret: string,
): string {
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    scope,
    sha256(canonicalRequest(req, auth.signedHeaders, auth.service)),
  ].join("\n");
  return createHmac("sha256", signingKey(secret, auth.date, auth.region, auth.service))
    .update(stringToSign)
    .digest("hex");
}

export function signatureMatches(req: SignableRequest, auth: ParsedAuthorization, secret: string): boolean {
  const expected = Buffer.from(computeSignature(req, auth, secret));
  const given = Buffer.from(auth.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Signs a request in place (sets x-amz-date and authorization), for clients without an SDK. */
export function signRequest(
  req: SignableRequest & { headers: Record<string, string> },
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
  service: string,
  now = new Date(),
): void {
  for (const key of Object.keys(req.headers)) {
    const lower = key.toLowerCase();
    if (lower !== key) {
      req.headers[lower] = req.headers[key]!;
      delete req.headers[key];
    }
  }
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  req.headers["x-amz-date"] = amzDate;
  const signedHeaders = Object.keys(req.headers)
    .map((h) => h.toLowerCase())
    .filter((h) => h !== "authorization")
    .sort();
  const auth = {
    accessKeyId: credentials.accessKeyId,
    date: amzDate.slice(0, 8),
    region,
    service,
    signedHeaders,
  };
  const signature = computeSignature(req, auth, credentials.secretAccessKey);
  req.headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${auth.date}/${region}/${service}/aws4_request, SignedHeaders=${signedHeaders.join(";")}, Signature=${signature}`;
}
