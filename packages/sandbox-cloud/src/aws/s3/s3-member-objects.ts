import { createHash } from "node:crypto";
import { header } from "../../http/types";
import { AwsError } from "../common";
import type { S3Context, S3Operation, S3Request } from "./s3-api";
import { aclKeys, ownBucket, perform } from "./s3-bucket-configuration";
import { noSuchKey, objectHeaders, requestHeaders } from "./s3-xml";

/**
 * Objects in member accounts' buckets, authorised by the SCPs in force with the ACL headers as
 * condition keys (`s3:x-amz-acl`, `s3:x-amz-grant-*`,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/amazon-s3-policy-keys.html). Object calls
 * are data events: the organisation trail, which logs management events, does not record them.
 * The organisation trail's bucket keeps its own grants (s3-api.ts).
 */
function isMemberBucket(ctx: S3Context, r: S3Request): boolean {
  const aws = ctx.store.state.aws;
  return (
    !!r.bucketName &&
    !aws.s3Buckets.some((b) => b.name === r.bucketName) &&
    aws.resources.some((b) => b.type === "AWS::S3::Bucket" && b.name === r.bucketName)
  );
}

const verb = (r: S3Request) => r.req.method.toUpperCase();
/**
 * The request's subresource parameters. The AWS SDKs for JavaScript v3 add `x-id=<Operation>` to
 * object calls, which S3 ignores; it names no subresource.
 */
const subresources = (r: S3Request) => [...r.req.query.keys()].filter((k) => k !== "x-id");
const objectArn = (r: S3Request) => `arn:aws:s3:::${r.bucketName}/${r.key}`;

export const MEMBER_OBJECT_OPERATIONS: S3Operation[] = [
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObjectAcl.html
    name: "PutObjectAcl",
    matches: (r, ctx) => verb(r) === "PUT" && !!r.key && r.req.query.has("acl") && isMemberBucket(ctx, r),
    run(ctx, r) {
      ownBucket(ctx, r);
      if (!ctx.objects.head(r.bucketName!, r.key!)) throw noSuchKey(r.key!);
      perform(ctx, r, { action: "s3:PutObjectAcl", resource: objectArn(r), context: aclKeys(r) }, () => ({
        result: undefined,
      }));
      return { status: 200, headers: requestHeaders() };
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html
    name: "PutObject",
    matches: (r, ctx) =>
      verb(r) === "PUT" &&
      !!r.key &&
      subresources(r).length === 0 &&
      !header(r.req, "x-amz-copy-source") &&
      isMemberBucket(ctx, r),
    run(ctx, r) {
      ownBucket(ctx, r);
      const md5 = header(r.req, "content-md5");
      if (md5 !== undefined && md5 !== createHash("md5").update(r.req.body).digest("base64")) {
        throw new AwsError("BadDigest", "The Content-MD5 you specified did not match what we received.", 400);
      }
      const meta = perform(
        ctx,
        r,
        { action: "s3:PutObject", resource: objectArn(r), context: aclKeys(r) },
        () => ({
          result: ctx.objects.put(
            r.bucketName!,
            r.key!,
            r.req.body,
            header(r.req, "content-type") ?? "binary/octet-stream",
            ctx.store.now(),
          ),
        }),
      );
      return { status: 200, headers: { ...requestHeaders(), etag: meta.etag } };
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html and API_HeadObject.html
    name: "GetObject",
    matches: (r, ctx) =>
      (verb(r) === "GET" || verb(r) === "HEAD") &&
      !!r.key &&
      subresources(r).length === 0 &&
      isMemberBucket(ctx, r),
    run(ctx, r) {
      ownBucket(ctx, r);
      const meta = perform(ctx, r, { action: "s3:GetObject", resource: objectArn(r) }, () => {
        const found = ctx.objects.head(r.bucketName!, r.key!);
        if (!found) throw noSuchKey(r.key!);
        return { result: found };
      });
      const headers = { ...objectHeaders(meta), "content-length": String(meta.size) };
      if (verb(r) === "HEAD") return { status: 200, headers };
      return { status: 200, headers, body: ctx.objects.body(r.bucketName!, r.key!) };
    },
  },
];
