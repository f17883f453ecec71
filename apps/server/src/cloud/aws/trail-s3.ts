import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { STSClient } from "@aws-sdk/client-sts";
import { errorCode, errorMessage, errorStatus, isUnreachable } from "../errors";
import { createLimiter, DEFAULT_RETRY, type RetryOptions, withRetry } from "../retry";
import { createRoleSession } from "./aws-clients";

/** Days of log files a connector reads on its first fetch unless it names another number. */
export const DEFAULT_TRAIL_BACKFILL_DAYS = 7;

/** Where an organisation trail delivers, and the role that reads it. */
export interface TrailSettings {
  bucket: string;
  /** Without a trailing slash; empty when the trail has none. */
  keyPrefix: string;
  bucketRegion: string;
  readerRoleArn: string;
  /** Empty when the reader role requires none. */
  readerExternalId: string;
  backfillDays: number;
}

export interface TrailS3Options {
  trail: TrailSettings;
  /** Sandbox, emulator or VPC endpoint; the public S3 endpoint of the bucket's region when absent. */
  endpoint?: string;
  baseCredentials?: { accessKeyId: string; secretAccessKey: string };
  /** Requests in flight at once against the bucket. */
  concurrency?: number;
  retry?: RetryOptions;
}

export type TrailErrorCode =
  | "TRAIL_ROLE_DENIED"
  | "TRAIL_BUCKET_NOT_FOUND"
  | "TRAIL_ACCESS_DENIED"
  | "TRAIL_SESSION_EXPIRED"
  | "TRAIL_WRONG_REGION"
  | "TRAIL_UNREACHABLE"
  | "TRAIL_NOT_FOUND"
  | "TRAIL_READ_FAILED";

/** A failure of the trail as a whole: nothing more is read and the position stays where it was. */
export class TrailError extends Error {
  override name = "TrailError";
  constructor(
    readonly code: TrailErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Attempts of a call whose connection failed, the first included. */
const NETWORK_ATTEMPTS = 3;
const EXPIRED = /ExpiredToken|TokenRefreshRequired|RequestExpired|InvalidToken/;

/** The named failure for an error of an S3 or STS call, in words that say what to fix. */
export function trailFailure(error: unknown, trail: TrailSettings, what: string): TrailError {
  if (error instanceof TrailError) return error;
  const code = errorCode(error);
  const where = `s3://${trail.bucket}/${trail.keyPrefix}`;
  if (isUnreachable(error))
    return new TrailError(
      "TRAIL_UNREACHABLE",
      `Cannot reach S3 in ${trail.bucketRegion}: ${errorMessage(error)}.`,
    );
  if (code === "NoSuchBucket")
    return new TrailError(
      "TRAIL_BUCKET_NOT_FOUND",
      `The bucket ${trail.bucket} does not exist. Check the trail's bucket name in CloudTrail (Trails > the organisation trail > Storage location).`,
    );
  if (EXPIRED.test(code))
    return new TrailError(
      "TRAIL_SESSION_EXPIRED",
      `S3 refused the session of ${trail.readerRoleArn} as expired (${code}) even after it was renewed. Check the Palisade server's clock and its own AWS identity.`,
    );
  if (
    /PermanentRedirect|AuthorizationHeaderMalformed|IllegalLocationConstraint|Redirect/.test(code) ||
    errorStatus(error) === 301
  )
    return new TrailError(
      "TRAIL_WRONG_REGION",
      `The bucket ${trail.bucket} is not in ${trail.bucketRegion} (${code || "301"}). Set the bucket's region on the connector.`,
    );
  if (/AccessDenied|AllAccessDisabled|KMS/.test(code) || errorStatus(error) === 403)
    return new TrailError(
      "TRAIL_ACCESS_DENIED",
      `The role ${trail.readerRoleArn} may not ${what} ${where} (${code || "403"}: ${errorMessage(error)}). Grant it s3:ListBucket on the bucket, s3:GetObject on ${where}AWSLogs/*, and kms:Decrypt on the trail's KMS key if the files are encrypted with SSE-KMS.`,
    );
  return new TrailError(
    "TRAIL_READ_FAILED",
    `Could not ${what} ${where}: ${code ? `${code}: ` : ""}${errorMessage(error)}`,
  );
}

/** The trail's bucket, signed with the reader role, one call at a time through the limiter. */
export interface TrailBucket {
  /** The folders (`CommonPrefixes`) directly under `prefix`. */
  folders(prefix: string): Promise<string[]>;
  /** Every key under `prefix` after `startAfter`, in key order, a page at a time. */
  keys(prefix: string, startAfter: string, onPage: (keys: string[]) => Promise<void>): Promise<void>;
  /** The object's bytes; undefined when it is gone (a lifecycle rule removed it since it was listed). */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Assumes the reader role; a refusal is a `TrailError`. */
  signIn(): Promise<void>;
  close(): void;
}

export function createTrailBucket(options: TrailS3Options): TrailBucket {
  const { trail } = options;
  const retry = options.retry ?? DEFAULT_RETRY;
  const limiter = createLimiter(options.concurrency ?? 8);
  const common = {
    region: trail.bucketRegion,
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  };
  const sts = new STSClient({
    ...common,
    ...(options.baseCredentials ? { credentials: options.baseCredentials } : {}),
  });
  const session = createRoleSession(sts, trail.readerRoleArn, trail.readerExternalId, retry);
  // An emulator or the sandbox serves every bucket on one host, so buckets are addressed by path.
  const s3 = new S3Client({
    ...common,
    credentials: session.credentials,
    forcePathStyle: Boolean(options.endpoint),
  });

  /**
   * Lists, reads and AssumeRole are idempotent, so a connection closed while idle (reset, timed out) is
   * tried again, a bounded number of times, before the trail is reported unreachable.
   */
  async function resend<T>(send: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await withRetry(send, retry);
      } catch (error) {
        if (!isUnreachable(error) || attempt >= NETWORK_ATTEMPTS) throw error;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  async function signIn() {
    try {
      await resend(session.renew);
    } catch (error) {
      if (/AccessDenied/.test(errorCode(error)))
        throw new TrailError(
          "TRAIL_ROLE_DENIED",
          `AssumeRole on ${trail.readerRoleArn} was denied. Check that its trust policy allows Palisade's principal${trail.readerExternalId ? ` with the external id ${trail.readerExternalId}` : ""}.`,
        );
      throw trailFailure(error, trail, "sign in to read");
    }
  }

  /** One S3 call: throttling retried, an expired session renewed once, other errors named. */
  async function call<T>(what: string, send: () => Promise<T>): Promise<T> {
    return limiter.run(async () => {
      try {
        return await resend(send);
      } catch (error) {
        if (!EXPIRED.test(errorCode(error))) throw trailFailure(error, trail, what);
        await signIn();
        try {
          return await resend(send);
        } catch (again) {
          throw trailFailure(again, trail, what);
        }
      }
    });
  }

  return {
    signIn,
    async folders(prefix) {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await call("list", () =>
          s3.send(
            new ListObjectsV2Command({
              Bucket: trail.bucket,
              Prefix: prefix,
              Delimiter: "/",
              ContinuationToken: token,
            }),
          ),
        );
        for (const p of page.CommonPrefixes ?? []) if (p.Prefix) out.push(p.Prefix);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async keys(prefix, startAfter, onPage) {
      let token: string | undefined;
      do {
        const page = await call("list", () =>
          s3.send(
            new ListObjectsV2Command({
              Bucket: trail.bucket,
              Prefix: prefix,
              StartAfter: startAfter,
              ContinuationToken: token,
            }),
          ),
        );
        await onPage((page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    get: (key) =>
      call("read", async () => {
        try {
          const out = await s3.send(new GetObjectCommand({ Bucket: trail.bucket, Key: key }));
          return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
        } catch (error) {
          if (errorCode(error) === "NoSuchKey") return undefined;
          throw error;
        }
      }),
    close() {
      sts.destroy();
      s3.destroy();
    },
  };
}
