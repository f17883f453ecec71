import type { ContextValue } from "@palisade/policy-engine/evaluators/scp/evaluate-scp";
import { S3_ACL_KEYS } from "@palisade/policy-engine/evaluators/scp/request-from-cloudtrail";
import { type Effect, performAws } from "../../enforce/aws-request";
import { header, type SandboxResponse } from "../../http/types";
import type { AwsResource } from "../../state/model";
import { AwsError } from "../common";
import { scpDenialError } from "../service-errors";
import { wireCaller } from "../wire-caller";
import type { S3Context, S3Operation, S3Request } from "./s3-api";
import { accessDenied, elements, noSuchBucket, requestHeaders, S3_XMLNS, xmlResult } from "./s3-xml";

/**
 * The bucket-level calls the catalogue's guardrails govern (CreateBucket, Put/Get/DeletePublicAccessBlock,
 * PutBucketAcl, PutBucketPolicy), on S3's REST/XML protocol, authorised by the SCPs in force. A
 * denial is S3's `AccessDenied` naming the denying policy
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/troubleshoot-403-errors.html).
 */

/** A bucket answers only in its own Region (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html). */
export function checkRegion(region: string, r: S3Request): void {
  if (r.caller.region === region) return;
  throw new AwsError(
    "AuthorizationHeaderMalformed",
    `The authorization header is malformed; the region '${r.caller.region}' is wrong; expecting '${region}'`,
    400,
    { Region: region },
  );
}

const verb = (r: S3Request) => r.req.method.toUpperCase();
const onBucket = (r: S3Request, m: string, sub?: string) =>
  verb(r) === m &&
  !!r.bucketName &&
  !r.key &&
  (sub ? r.req.query.has(sub) : [...r.req.query.keys()].length === 0);

/** The ACL headers S3 exposes as condition keys (https://docs.aws.amazon.com/AmazonS3/latest/userguide/amazon-s3-policy-keys.html). */
export function aclKeys(r: S3Request): Record<string, ContextValue> {
  return Object.fromEntries(
    S3_ACL_KEYS.flatMap((n) => {
      const v = header(r.req, n);
      return v === undefined ? [] : [[`s3:${n}`, v]];
    }),
  );
}

/** A bucket of a member account (or the trail's bucket), in its Region, owned by the caller's account. */
export function ownBucket(ctx: S3Context, r: S3Request): { resource?: AwsResource; region: string } {
  const aws = ctx.store.state.aws;
  const resource = aws.resources.find((b) => b.type === "AWS::S3::Bucket" && b.name === r.bucketName);
  const trailBucket = aws.s3Buckets.find((b) => b.name === r.bucketName);
  const found = resource ?? trailBucket;
  if (!found) throw noSuchBucket(r.bucketName ?? "");
  checkRegion(found.region, r);
  // No bucket policy grants another account these calls.
  if (found.accountId !== r.caller.accountId) throw accessDenied();
  return { resource, region: found.region };
}

/** Authorises and performs one bucket call as the signed caller; a denial is S3's AccessDenied. */
export function perform<T>(
  ctx: S3Context,
  r: S3Request,
  call: {
    action: string;
    eventName?: string;
    /** The resource authorised; the bucket's ARN unless given. */
    resource?: string;
    context?: Record<string, ContextValue>;
    requestParameters?: Record<string, unknown>;
  },
  run: () => Effect<T>,
): T {
  const who = wireCaller(ctx.store.state.aws, r.caller, r.req);
  const outcome = performAws(
    ctx.store,
    {
      caller: who.principal,
      account: who.account,
      action: call.action,
      eventName: call.eventName,
      resources: [{ arn: call.resource ?? `arn:aws:s3:::${r.bucketName}` }],
      region: r.caller.region,
      // aws:SecureTransport is whether this request came over TLS: "false" on the sandbox's plain
      // http listener, "true" on its https one.
      context: { "aws:SecureTransport": String(r.req.secure), ...(call.context ?? {}) },
      accessKeyId: r.caller.accessKeyId,
      userAgent: who.userAgent,
      requestParameters: call.requestParameters,
    },
    run,
  );
  if (!outcome.allowed) throw scpDenialError(outcome.denial);
  return outcome.result;
}

export const emptyOk = (status = 200, more: Record<string, string> = {}): SandboxResponse => ({
  status,
  headers: { ...requestHeaders(), ...more },
});

const BUCKET_NAME = /^(?!xn--|sthree-)(?!.*-s3alias$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
export const FLAGS = [
  "BlockPublicAcls",
  "IgnorePublicAcls",
  "BlockPublicPolicy",
  "RestrictPublicBuckets",
] as const;
export type PublicAccessBlock = Record<(typeof FLAGS)[number], boolean>;

export function readPublicAccessBlock(body: string): PublicAccessBlock {
  if (!/<PublicAccessBlockConfiguration[\s>]/.test(body)) {
    throw new AwsError(
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema",
      400,
    );
  }
  // A flag left out is false (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PublicAccessBlockConfiguration.html).
  return Object.fromEntries(
    FLAGS.map((f) => [f, new RegExp(`<${f}>\\s*true\\s*</${f}>`, "i").test(body)]),
  ) as PublicAccessBlock;
}

export const BUCKET_CONFIGURATION_OPERATIONS: S3Operation[] = [
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateBucket.html
    name: "CreateBucket",
    matches: (r) => onBucket(r, "PUT"),
    run(ctx, r) {
      const name = r.bucketName!;
      if (!BUCKET_NAME.test(name) || name.includes("..")) {
        throw new AwsError("InvalidBucketName", "The specified bucket is not valid.", 400, {
          BucketName: name,
        });
      }
      const location = /<LocationConstraint>([^<]*)<\/LocationConstraint>/.exec(r.req.body.toString())?.[1];
      const region = location || "us-east-1";
      if (region !== r.caller.region) {
        throw new AwsError(
          "IllegalLocationConstraintException",
          `The ${region} location constraint is incompatible for the region specific endpoint this request was sent to.`,
          400,
        );
      }
      const context: Record<string, ContextValue> = {
        ...aclKeys(r),
        ...(location ? { "s3:LocationConstraint": location } : {}),
      };
      perform(ctx, r, { action: "s3:CreateBucket", context }, () => {
        const aws = ctx.store.state.aws;
        const taken =
          aws.resources.find((b) => b.type === "AWS::S3::Bucket" && b.name === name) ??
          aws.s3Buckets.find((b) => b.name === name);
        if (taken?.accountId === r.caller.accountId) {
          throw new AwsError(
            "BucketAlreadyOwnedByYou",
            "Your previous request to create the named bucket succeeded and you already own it.",
            409,
            { BucketName: name },
          );
        }
        if (taken) {
          throw new AwsError(
            "BucketAlreadyExists",
            "The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.",
            409,
            { BucketName: name },
          );
        }
        // New buckets block public access (https://docs.aws.amazon.com/AmazonS3/latest/userguide/create-bucket-overview.html).
        const bucket: AwsResource = {
          arn: `arn:aws:s3:::${name}`,
          type: "AWS::S3::Bucket",
          accountId: r.caller.accountId,
          region,
          name,
          properties: { acl: String(context["s3:x-amz-acl"] ?? "private"), blockPublicAccess: true },
        };
        aws.resources.push(bucket);
        return { result: bucket, changed: bucket };
      });
      return emptyOk(200, { location: `/${name}` });
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutPublicAccessBlock.html: authorised as s3:PutBucketPublicAccessBlock.
    name: "PutPublicAccessBlock",
    matches: (r) => onBucket(r, "PUT", "publicAccessBlock"),
    run(ctx, r) {
      const { resource } = ownBucket(ctx, r);
      const config = readPublicAccessBlock(r.req.body.toString());
      perform(
        ctx,
        r,
        {
          action: "s3:PutBucketPublicAccessBlock",
          requestParameters: {
            publicAccessBlock: [""],
            bucketName: r.bucketName,
            Host: `${r.bucketName}.s3.${r.caller.region}.amazonaws.com`,
            PublicAccessBlockConfiguration: { xmlns: S3_XMLNS, ...config },
          },
        },
        () => {
          if (resource) {
            resource.properties.publicAccessBlock = config;
            resource.properties.blockPublicAccess = FLAGS.every((f) => config[f]);
          }
          return { result: undefined, responseElements: null };
        },
      );
      return emptyOk();
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetPublicAccessBlock.html
    name: "GetPublicAccessBlock",
    matches: (r) => onBucket(r, "GET", "publicAccessBlock"),
    run(ctx, r) {
      const { resource } = ownBucket(ctx, r);
      const config = perform(ctx, r, { action: "s3:GetBucketPublicAccessBlock" }, () => {
        const stored = resource?.properties.publicAccessBlock as PublicAccessBlock | undefined;
        const all = Object.fromEntries(FLAGS.map((f) => [f, true])) as PublicAccessBlock;
        const found =
          stored ?? (resource?.properties.blockPublicAccess === true || !resource ? all : undefined);
        if (!found) {
          throw new AwsError(
            "NoSuchPublicAccessBlockConfiguration",
            "The public access block configuration was not found",
            404,
            { BucketName: r.bucketName! },
          );
        }
        return { result: found, responseElements: null };
      });
      return xmlResult(
        `<PublicAccessBlockConfiguration xmlns="${S3_XMLNS}">${elements(FLAGS.map((f) => [f, config[f]]))}</PublicAccessBlockConfiguration>`,
      );
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeletePublicAccessBlock.html: authorised as s3:PutBucketPublicAccessBlock.
    name: "DeletePublicAccessBlock",
    matches: (r) => onBucket(r, "DELETE", "publicAccessBlock"),
    run(ctx, r) {
      const { resource } = ownBucket(ctx, r);
      perform(
        ctx,
        r,
        { action: "s3:PutBucketPublicAccessBlock", eventName: "DeleteBucketPublicAccessBlock" },
        () => {
          if (resource) {
            delete resource.properties.publicAccessBlock;
            resource.properties.blockPublicAccess = false;
          }
          return { result: undefined, responseElements: null };
        },
      );
      return emptyOk(204);
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketAcl.html
    name: "PutBucketAcl",
    matches: (r) => onBucket(r, "PUT", "acl"),
    run(ctx, r) {
      const { resource } = ownBucket(ctx, r);
      const context = aclKeys(r);
      perform(ctx, r, { action: "s3:PutBucketAcl", context }, () => {
        if (resource && context["s3:x-amz-acl"] !== undefined)
          resource.properties.acl = String(context["s3:x-amz-acl"]);
        return { result: undefined, responseElements: null };
      });
      return emptyOk();
    },
  },
  {
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketPolicy.html
    name: "PutBucketPolicy",
    matches: (r) => onBucket(r, "PUT", "policy"),
    run(ctx, r) {
      const { resource } = ownBucket(ctx, r);
      const text = r.req.body.toString();
      try {
        JSON.parse(text);
      } catch {
        throw new AwsError(
          "MalformedPolicy",
          "Policies must be valid JSON and the first byte must be '{'",
          400,
        );
      }
      perform(ctx, r, { action: "s3:PutBucketPolicy" }, () => {
        if (resource) resource.properties.policy = text;
        return { result: undefined, responseElements: null };
      });
      return emptyOk(204);
    },
  },
];
