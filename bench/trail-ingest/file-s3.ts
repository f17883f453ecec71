import { createReadStream, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, relative, sep } from "node:path";

/**
 * A file-backed S3 endpoint for the benchmark, run as its own process: the objects are the files
 * under `root/<bucket>/`, answered with ListObjectsV2 (prefix, delimiter, start-after, continuation,
 * 1,000 keys a page) and GetObject
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html), and STS AssumeRole
 * answered with a session, so the reader's SDK calls are unchanged. No signature is checked: it
 * measures Palisade's side, not S3's.
 *   tsx file-s3.ts <root>  (prints the port it listens on)
 */
const root = process.argv[2] ?? ".";
const PAGE = 1000;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
const buckets = new Map<string, string[]>(
  readdirSync(root).map((bucket) => [
    bucket,
    walk(join(root, bucket))
      .map((p) => relative(join(root, bucket), p).split(sep).join("/"))
      .sort(),
  ]),
);

const known = new Set([...buckets].flatMap(([bucket, keys]) => keys.map((key) => `${bucket}/${key}`)));

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function list(keys: string[], q: URLSearchParams): string {
  const prefix = q.get("prefix") ?? "";
  const delimiter = q.get("delimiter") ?? "";
  const after = q.get("continuation-token") ?? q.get("start-after") ?? "";
  const contents: string[] = [];
  const prefixes = new Set<string>();
  let next = "";
  for (const key of keys) {
    if (!key.startsWith(prefix) || key <= after) continue;
    if (contents.length + prefixes.size >= PAGE) {
      next = contents.at(-1) ?? [...prefixes].at(-1) ?? "";
      break;
    }
    const rest = key.slice(prefix.length);
    const cut = delimiter ? rest.indexOf(delimiter) : -1;
    if (cut >= 0) prefixes.add(prefix + rest.slice(0, cut + delimiter.length));
    else contents.push(key);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Prefix>${xml(prefix)}</Prefix><KeyCount>${contents.length + prefixes.size}</KeyCount><MaxKeys>${PAGE}</MaxKeys><IsTruncated>${next ? "true" : "false"}</IsTruncated>${next ? `<NextContinuationToken>${xml(next)}</NextContinuationToken>` : ""}${contents.map((k) => `<Contents><Key>${xml(k)}</Key></Contents>`).join("")}${[...prefixes].map((p) => `<CommonPrefixes><Prefix>${xml(p)}</Prefix></CommonPrefixes>`).join("")}</ListBucketResult>`;
}

const session = `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIABENCHEXAMPLE</AccessKeyId><SecretAccessKey>bench</SecretAccessKey><SessionToken>bench</SessionToken><Expiration>${new Date(Date.now() + 3_600_000).toISOString()}</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROABENCH:palisade</AssumedRoleId><Arn>arn:aws:sts::300000000000:assumed-role/reader/palisade</Arn></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>`;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method === "POST") {
    req.resume();
    res.writeHead(200, { "content-type": "text/xml" }).end(session);
    return;
  }
  const [, bucket = "", ...rest] = url.pathname.split("/");
  const keys = buckets.get(decodeURIComponent(bucket));
  if (!keys) {
    res
      .writeHead(404, { "content-type": "application/xml" })
      .end("<Error><Code>NoSuchBucket</Code><Message>NoSuchBucket</Message></Error>");
    return;
  }
  if (rest.length === 0 || (rest.length === 1 && rest[0] === "")) {
    res.writeHead(200, { "content-type": "application/xml" }).end(list(keys, url.searchParams));
    return;
  }
  const key = rest.map(decodeURIComponent).join("/");
  const path = join(root, decodeURIComponent(bucket), ...key.split("/"));
  if (!known.has(`${decodeURIComponent(bucket)}/${key}`)) {
    res
      .writeHead(404, { "content-type": "application/xml" })
      .end("<Error><Code>NoSuchKey</Code><Message>NoSuchKey</Message></Error>");
    return;
  }
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(path).size });
  createReadStream(path).pipe(res);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : 0);
});
