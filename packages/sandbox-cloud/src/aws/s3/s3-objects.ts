import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface S3ObjectMeta {
  key: string;
  size: number;
  /** Quoted MD5 of the body, as S3 gives it for single-part uploads. */
  etag: string;
  lastModified: string;
  contentType: string;
}

/** Objects of the sandbox's buckets. Bucket definitions (owner, region, access) live in the state. */
export interface S3Objects {
  put(bucket: string, key: string, body: Buffer, contentType: string, at: Date): S3ObjectMeta;
  head(bucket: string, key: string): S3ObjectMeta | undefined;
  body(bucket: string, key: string): Buffer | undefined;
  /** Every key of the bucket in UTF-8 binary order, the order ListObjectsV2 answers in. */
  keys(bucket: string): string[];
}

const INDEX = "index.jsonl";
const fileOf = (key: string) => createHash("sha256").update(key).digest("hex");

/**
 * Objects on disk under `dir` (one file per object, an append-only index per bucket, so a restart
 * keeps them), or in memory when no directory is given.
 */
export function openS3Objects(dir?: string): S3Objects {
  const metas = new Map<string, Map<string, S3ObjectMeta>>();
  const memory = new Map<string, Buffer>();
  const sorted = new Map<string, string[]>();
  const bucketOf = (bucket: string) => {
    let m = metas.get(bucket);
    if (!m) {
      m = new Map();
      metas.set(bucket, m);
    }
    return m;
  };
  if (dir && existsSync(dir)) {
    for (const bucket of readdirSync(dir)) {
      const index = join(dir, bucket, INDEX);
      if (!existsSync(index)) continue;
      const m = bucketOf(bucket);
      for (const line of readFileSync(index, "utf8").split("\n")) {
        if (!line) continue;
        try {
          const meta = JSON.parse(line) as S3ObjectMeta;
          m.set(meta.key, meta);
        } catch {
          // A line cut short by a crash names an object whose body may be incomplete: it is skipped.
        }
      }
    }
  }
  return {
    put(bucket, key, body, contentType, at) {
      const meta: S3ObjectMeta = {
        key,
        size: body.length,
        etag: `"${createHash("md5").update(body).digest("hex")}"`,
        lastModified: at.toISOString(),
        contentType,
      };
      if (dir) {
        mkdirSync(join(dir, bucket), { recursive: true });
        writeFileSync(join(dir, bucket, fileOf(key)), body);
        appendFileSync(join(dir, bucket, INDEX), `${JSON.stringify(meta)}\n`);
      } else {
        memory.set(`${bucket}/${key}`, body);
      }
      const m = bucketOf(bucket);
      if (!m.has(key)) sorted.delete(bucket);
      m.set(key, meta);
      return meta;
    },
    head: (bucket, key) => metas.get(bucket)?.get(key),
    body(bucket, key) {
      if (!metas.get(bucket)?.has(key)) return undefined;
      return dir ? readFileSync(join(dir, bucket, fileOf(key))) : memory.get(`${bucket}/${key}`);
    },
    keys(bucket) {
      let keys = sorted.get(bucket);
      if (!keys) {
        keys = [...(metas.get(bucket)?.keys() ?? [])].sort((a, b) =>
          Buffer.compare(Buffer.from(a), Buffer.from(b)),
        );
        sorted.set(bucket, keys);
      }
      return keys;
    },
  };
}
