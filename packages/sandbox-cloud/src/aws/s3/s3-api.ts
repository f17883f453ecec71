import { createHash } from "node:crypto";
import { header, type SandboxRequest, type SandboxResponse } from "../../http/types";
import type { S3Bucket } from "../../state/model";
import type { StateStore } from "../../state/store";
import { type AwsCaller, AwsError, authenticateAws } from "../common";
import { deliverDueLogFiles } from "../trail-delivery";
import { listObjectsV2 } from "./list-objects";
import { BUCKET_CONFIGURATION_OPERATIONS, checkRegion } from "./s3-bucket-configuration";
import { S3_CONTROL_OPERATIONS } from "./s3-control";
import { MEMBER_OBJECT_OPERATIONS } from "./s3-member-objects";
import type { S3Objects } from "./s3-objects";
import {
  accessDenied,
  elements,
  noSuchBucket,
  noSuchKey,
  notImplemented,
  objectHeaders,
  requestHeaders,
  S3_XMLNS,
  s3Error,
  xmlResult,
} from "./s3-xml";

export interface S3Context {
  store: StateStore;
  objects: S3Objects;
}

/** A path-style request: /bucket/key. */
export interface S3Request {
  req: SandboxRequest;
  caller: AwsCaller;
  bucketName?: string;
  key?: string;
}

export interface S3Operation {
  name: string;
  matches(r: S3Request, ctx: S3Context): boolean;
  run(ctx: S3Context, r: S3Request): SandboxResponse;
}

const method = (r: S3Request) => r.req.method.toUpperCase();

/** A session of a role is granted what the role is granted, as a bucket policy naming the role grants. */
function grantee(callerArn: string): string {
  const m = /^arn:aws:sts::(\d{12}):assumed-role\/([^/]+)\//.exec(callerArn);
  return m ? `arn:aws:iam::${m[1]}:role/${m[2]}` : callerArn;
}

/**
 * The bucket a request names, with the caller's access to it. A bucket answers only in its own
 * Region (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html,
 * AuthorizationHeaderMalformed); a principal the bucket does not grant gets AccessDenied.
 */
function bucketFor(ctx: S3Context, r: S3Request, access: "readers" | "writers", anyRegion = false): S3Bucket {
  const bucket = ctx.store.state.aws.s3Buckets.find((b) => b.name === r.bucketName);
  if (!bucket) throw noSuchBucket(r.bucketName ?? "");
  if (!anyRegion) checkRegion(bucket.region, r);
  if (!bucket[access].includes(grantee(r.caller.arn))) throw accessDenied();
  return bucket;
}

/** The operations served, matched in order; another data-plane call is one more entry. */
export const S3_OPERATIONS: S3Operation[] = [
  ...S3_CONTROL_OPERATIONS,
  ...BUCKET_CONFIGURATION_OPERATIONS,
  ...MEMBER_OBJECT_OPERATIONS,
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListBuckets.html
    name: "ListBuckets",
    matches: (r) => method(r) === "GET" && !r.bucketName,
    run(ctx, r) {
      const aws = ctx.store.state.aws;
      const own = aws.s3Buckets.filter((b) => b.accountId === r.caller.accountId);
      const who = grantee(r.caller.arn);
      if (!own.some((b) => b.readers.includes(who) || b.writers.includes(who))) throw accessDenied();
      const buckets = own
        .map(
          (b) =>
            `<Bucket>${elements([
              ["Name", b.name],
              ["CreationDate", b.createdAt],
              ["BucketRegion", b.region],
            ])}</Bucket>`,
        )
        .join("");
      return xmlResult(
        `<ListAllMyBucketsResult xmlns="${S3_XMLNS}"><Owner>${elements([["ID", createHash("sha256").update(r.caller.accountId).digest("hex")]])}</Owner><Buckets>${buckets}</Buckets></ListAllMyBucketsResult>`,
      );
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html
    name: "HeadBucket",
    matches: (r) => method(r) === "HEAD" && !!r.bucketName && !r.key,
    run(ctx, r) {
      const bucket = bucketFor(ctx, r, "readers");
      return { status: 200, headers: { ...requestHeaders(), "x-amz-bucket-region": bucket.region } };
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetBucketLocation.html: answered from any Region.
    name: "GetBucketLocation",
    matches: (r) => method(r) === "GET" && !!r.bucketName && !r.key && r.req.query.has("location"),
    run(ctx, r) {
      const bucket = bucketFor(ctx, r, "readers", true);
      return xmlResult(
        `<LocationConstraint xmlns="${S3_XMLNS}">${bucket.region === "us-east-1" ? "" : bucket.region}</LocationConstraint>`,
      );
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html
    name: "ListObjectsV2",
    matches: (r) => method(r) === "GET" && !!r.bucketName && !r.key && r.req.query.get("list-type") === "2",
    run(ctx, r) {
      const bucket = bucketFor(ctx, r, "readers");
      return listObjectsV2(ctx.objects, bucket.name, r.req.query);
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html and API_HeadObject.html
    name: "GetObject",
    matches: (r) => (method(r) === "GET" || method(r) === "HEAD") && !!r.key,
    run(ctx, r) {
      const bucket = bucketFor(ctx, r, "readers");
      const meta = ctx.objects.head(bucket.name, r.key!);
      if (!meta) throw noSuchKey(r.key!);
      const headers = { ...objectHeaders(meta), "content-length": String(meta.size) };
      if (method(r) === "HEAD") return { status: 200, headers };
      return { status: 200, headers, body: ctx.objects.body(bucket.name, r.key!) };
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html
    name: "PutObject",
    matches: (r) => method(r) === "PUT" && !!r.key && !header(r.req, "x-amz-copy-source"),
    run(ctx, r) {
      const bucket = bucketFor(ctx, r, "writers");
      const md5 = header(r.req, "content-md5");
      if (md5 !== undefined && md5 !== createHash("md5").update(r.req.body).digest("base64")) {
        throw new AwsError("BadDigest", "The Content-MD5 you specified did not match what we received.", 400);
      }
      const meta = ctx.objects.put(
        bucket.name,
        r.key!,
        r.req.body,
        header(r.req, "content-type") ?? "binary/octet-stream",
        ctx.store.now(),
      );
      return { status: 200, headers: { ...requestHeaders(), etag: meta.etag } };
    },
  },
];

/**
 * The payload hash S3 requires with every SigV4 request
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html): the body's
 * SHA-256, or UNSIGNED-PAYLOAD. Chunked (STREAMING-*) uploads are not served.
 */
function checkPayloadHash(req: SandboxRequest): void {
  const declared = header(req, "x-amz-content-sha256");
  if (declared === undefined) {
    throw new AwsError(
      "InvalidRequest",
      "Missing required header for this request: x-amz-content-sha256",
      400,
    );
  }
  if (declared === "UNSIGNED-PAYLOAD") return;
  if (declared.startsWith("STREAMING-")) throw notImplemented();
  if (declared !== createHash("sha256").update(req.body).digest("hex")) {
    throw new AwsError(
      "XAmzContentSHA256Mismatch",
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
      400,
    );
  }
}

/** A path-style S3 request, signed with SigV4 for the service `s3`. */
export function handleS3(ctx: S3Context, req: SandboxRequest): SandboxResponse {
  try {
    const caller = authenticateAws(ctx.store.state.aws, req, new Date(), "rest-xml");
    if (caller instanceof AwsError) throw caller;
    checkPayloadHash(req);
    deliverDueLogFiles(ctx.store, ctx.objects);
    const [, bucketName, ...rest] = req.path.split("/");
    let key: string | undefined;
    try {
      key = rest.length > 0 && rest.join("/") !== "" ? decodeURIComponent(rest.join("/")) : undefined;
    } catch {
      throw new AwsError("InvalidURI", "Couldn't parse the specified URI.", 400);
    }
    const r: S3Request = { req, caller, bucketName: bucketName || undefined, key };
    const operation = S3_OPERATIONS.find((o) => o.matches(r, ctx));
    if (!operation) throw notImplemented();
    return operation.run(ctx, r);
  } catch (err) {
    if (err instanceof AwsError) return s3Error(err, req.method);
    throw err;
  }
}
