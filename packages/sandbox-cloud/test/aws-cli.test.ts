import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRequest } from "../src/aws/sigv4";
import type { OrganizationTrailInfo } from "../src/start-sandbox-cloud";
import type { CloudTrailRecord } from "../src/state/model";
import {
  assumeRoleWithCli,
  type CliCredentials,
  type CliResult,
  refusal,
  runAws,
  sandboxAccessKey,
} from "./aws-cli";
import { type Harness, startHarness } from "./sandbox-harness";

// The AWS CLI v1 drives the sandbox's CloudTrail and S3 unchanged; each answer is the one AWS documents:
// https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html,
// https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html,
// https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html, API_GetObject.html, ErrorResponses.html.

let h: Harness;
let dir: string;
let trail: OrganizationTrailInfo;
let paymentsDev: CliCredentials & { accountId: string };
let storefrontDev: CliCredentials & { accountId: string };
let reader: CliCredentials;
const created: Record<string, string> = {};

/** The CLI's report of a refused call: "An error occurred (Code) when calling the Op operation[ (...)]: Message". */
function expectRefused(out: CliResult, code: string, operation: string, message = "") {
  expect(out.code).not.toBe(0);
  const reported = refusal(out);
  expect([reported.code, reported.operation], out.stderr).toEqual([code, operation]);
  expect(reported.message).toContain(message);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const userKey = (account: string, principal?: string) => sandboxAccessKey(h.cloud.url, account, principal);

async function tryAws(account: string, action: string, resource: string, region: string) {
  const { body } = await h.post("/sandbox/try", {
    provider: "aws",
    account,
    principal: "user/alice",
    action,
    resource,
    region,
  });
  return String(body.eventId);
}

const cli = (region: string, credentials: CliCredentials, args: string[]) =>
  runAws(h.cloud.url, region, credentials, args);

type Lookup = {
  Events: { EventId: string; EventName: string; CloudTrailEvent: string }[];
  NextToken?: string;
};

const assumeRole = (credentials: CliCredentials, roleArn: string, externalId?: string) =>
  assumeRoleWithCli(h.cloud.url, credentials, roleArn, "cli-test", externalId);

beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "palisade-cli-"));
  const info = await (await fetch(`${h.cloud.url}/sandbox/info`)).json();
  trail = (info as { aws: { organizationTrail: OrganizationTrailInfo } }).aws.organizationTrail;
  paymentsDev = await userKey("payments-dev");
  storefrontDev = await userKey("storefront-dev");
  const connector = { accessKeyId: h.cloud.aws.accessKeyId, secretAccessKey: h.cloud.aws.secretAccessKey };
  reader = await assumeRole(connector, trail.readerRoleArn, trail.readerExternalId);
  created.bucketA = await tryAws("payments-dev", "s3:CreateBucket", "cli-bucket-a", "us-east-1");
  created.describe = await tryAws("payments-dev", "ec2:DescribeInstances", "*", "eu-west-1");
  created.bucketB = await tryAws("storefront-dev", "s3:CreateBucket", "cli-bucket-b", "us-east-1");
}, 120_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.stop();
});

describe("cloudtrail lookup-events with the AWS CLI", () => {
  it("answers the caller's account in the endpoint's Region only", async () => {
    const records = async (region: string, credentials: CliCredentials) => {
      const out = await cli(region, credentials, ["cloudtrail", "lookup-events", "--no-paginate"]);
      expect(out.stderr).toBe("");
      return out.json<Lookup>().Events.map((e) => JSON.parse(e.CloudTrailEvent) as CloudTrailRecord);
    };
    const east = await records("us-east-1", paymentsDev);
    expect(east.map((r) => r.eventID)).toContain(created.bucketA);
    expect(east.map((r) => r.eventID)).not.toContain(created.bucketB);
    expect(east.map((r) => r.eventID)).not.toContain(created.describe);
    for (const r of east)
      expect([r.recipientAccountId, r.awsRegion]).toEqual([paymentsDev.accountId, "us-east-1"]);

    const west = await records("eu-west-1", paymentsDev);
    expect(west.map((r) => r.eventID)).toEqual([created.describe]);

    const management = await records("us-east-1", {
      accessKeyId: h.cloud.aws.accessKeyId,
      secretAccessKey: h.cloud.aws.secretAccessKey,
    });
    expect(management.map((r) => r.recipientAccountId)).not.toContain(paymentsDev.accountId);
    expect(management.map((r) => r.recipientAccountId)).toContain(h.cloud.aws.managementAccountId);
  }, 120_000);

  it("pages with NextToken and MaxResults, refuses a foreign token, and throttles a third call in a second", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await tryAws("payments-dev", "ec2:DescribeInstances", "*", "ap-southeast-2"));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      await sleep(1000);
      const out = await cli("ap-southeast-2", paymentsDev, [
        "cloudtrail",
        "lookup-events",
        "--no-paginate",
        "--max-results",
        "2",
        ...(token ? ["--next-token", token] : []),
      ]);
      expect(out.stderr).toBe("");
      const page = out.json<Lookup>();
      expect(page.Events.length).toBeLessThanOrEqual(2);
      seen.push(...page.Events.map((e) => e.EventId));
      token = page.NextToken;
      pages++;
    } while (token);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);

    await sleep(1000);
    const foreign = await cli("ap-southeast-2", paymentsDev, [
      "cloudtrail",
      "lookup-events",
      "--next-token",
      "bm90LWEtdG9rZW4",
    ]);
    expectRefused(foreign, "InvalidNextTokenException", "LookupEvents");

    // The CLI's own paginator asks page after page at once: the third request within a second is refused.
    await sleep(1000);
    const rushed = await cli("ap-southeast-2", paymentsDev, [
      "cloudtrail",
      "lookup-events",
      "--page-size",
      "1",
    ]);
    expectRefused(rushed, "ThrottlingException", "LookupEvents", "Rate exceeded");
  }, 120_000);
});

describe("the organisation trail's bucket with the AWS CLI", () => {
  const s3 = (credentials: CliCredentials, args: string[]) =>
    cli(trail.bucketRegion, credentials, ["s3api", ...args]);
  const orgPrefix = () => `${trail.keyPrefix ? `${trail.keyPrefix}/` : ""}AWSLogs/${trail.organizationId}/`;

  it("holds gzipped {Records} files per account and Region under the documented key layout", async () => {
    // Delivery is delayed (0.5 to 1.5 times the delay after a gathering of half the delay): move past it.
    await h.post("/sandbox/control/clock", { advanceSeconds: 3 * trail.deliveryDelaySeconds });
    await sleep(1200);
    const prefix = `${orgPrefix()}${paymentsDev.accountId}/CloudTrail/us-east-1/`;
    const listed = await s3(reader, ["list-objects-v2", "--bucket", trail.bucket, "--prefix", prefix]);
    expect(listed.stderr).toBe("");
    const contents = listed.json<{ Contents: { Key: string; Size: number }[]; KeyCount: number }>().Contents;
    expect(contents.length).toBeGreaterThan(0);
    const layout = new RegExp(
      `^${prefix}(\\d{4})/(\\d{2})/(\\d{2})/${paymentsDev.accountId}_CloudTrail_us-east-1_(\\d{8})T\\d{4}Z_[A-Za-z0-9]{16}\\.json\\.gz$`,
    );
    const records: CloudTrailRecord[] = [];
    for (const { Key, Size } of contents) {
      const m = layout.exec(Key);
      expect(m, Key).not.toBeNull();
      expect(`${m![1]}${m![2]}${m![3]}`).toBe(m![4]);
      const file = join(dir, "object.json.gz");
      const got = await s3(reader, ["get-object", "--bucket", trail.bucket, "--key", Key, file]);
      expect(got.json<{ ContentLength: number }>().ContentLength).toBe(Size);
      const body = JSON.parse(gunzipSync(readFileSync(file)).toString()) as { Records: CloudTrailRecord[] };
      expect(Object.keys(body)).toEqual(["Records"]);
      records.push(...body.Records);
    }
    expect(records.map((r) => r.eventID)).toContain(created.bucketA);
    for (const r of records)
      expect([r.recipientAccountId, r.awsRegion]).toEqual([paymentsDev.accountId, "us-east-1"]);

    const accounts = await s3(reader, [
      "list-objects-v2",
      "--bucket",
      trail.bucket,
      "--prefix",
      orgPrefix(),
      "--delimiter",
      "/",
    ]);
    const prefixes = accounts
      .json<{ CommonPrefixes: { Prefix: string }[] }>()
      .CommonPrefixes.map((p) => p.Prefix);
    expect(prefixes).toEqual(
      expect.arrayContaining([
        `${orgPrefix()}${paymentsDev.accountId}/`,
        `${orgPrefix()}${storefrontDev.accountId}/`,
      ]),
    );
  }, 120_000);

  it("pages ListObjectsV2 with max-keys, continuation-token and start-after", async () => {
    const all = await s3(reader, ["list-objects-v2", "--bucket", trail.bucket, "--prefix", orgPrefix()]);
    const keys = all.json<{ Contents: { Key: string }[] }>().Contents.map((c) => c.Key);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(keys).toEqual([...keys].sort());
    const first = await s3(reader, [
      "list-objects-v2",
      "--bucket",
      trail.bucket,
      "--prefix",
      orgPrefix(),
      "--max-keys",
      "1",
      "--no-paginate",
    ]);
    const page1 = first.json<{
      Contents: { Key: string }[];
      KeyCount: number;
      IsTruncated: boolean;
      NextContinuationToken: string;
    }>();
    expect([page1.KeyCount, page1.IsTruncated, page1.Contents.map((c) => c.Key)]).toEqual([
      1,
      true,
      [keys[0]],
    ]);
    const second = await s3(reader, [
      "list-objects-v2",
      "--bucket",
      trail.bucket,
      "--prefix",
      orgPrefix(),
      "--max-keys",
      "1",
      "--no-paginate",
      "--continuation-token",
      page1.NextContinuationToken,
    ]);
    expect(second.json<{ Contents: { Key: string }[] }>().Contents.map((c) => c.Key)).toEqual([keys[1]]);
    const after = await s3(reader, [
      "list-objects-v2",
      "--bucket",
      trail.bucket,
      "--prefix",
      orgPrefix(),
      "--start-after",
      keys[1]!,
    ]);
    expect(after.json<{ Contents: { Key: string }[] }>().Contents.map((c) => c.Key)).toEqual(keys.slice(2));
  }, 120_000);

  it("answers NoSuchKey, NoSuchBucket, AccessDenied and SignatureDoesNotMatch as S3 does", async () => {
    const missing = await s3(reader, [
      "get-object",
      "--bucket",
      trail.bucket,
      "--key",
      `${orgPrefix()}none.json.gz`,
      join(dir, "x"),
    ]);
    expectRefused(missing, "NoSuchKey", "GetObject", "The specified key does not exist.");
    const noBucket = await s3(reader, ["list-objects-v2", "--bucket", "no-such-bucket-here"]);
    expectRefused(noBucket, "NoSuchBucket", "ListObjectsV2", "The specified bucket does not exist");
    const stranger = await s3(paymentsDev, ["list-objects-v2", "--bucket", trail.bucket]);
    expectRefused(stranger, "AccessDenied", "ListObjectsV2", "Access Denied");
    const forged = await s3({ ...reader, secretAccessKey: `${reader.secretAccessKey}x` }, [
      "list-objects-v2",
      "--bucket",
      trail.bucket,
    ]);
    expectRefused(forged, "SignatureDoesNotMatch", "ListObjectsV2");
    const head = await s3(reader, [
      "head-object",
      "--bucket",
      trail.bucket,
      "--key",
      `${orgPrefix()}none.json.gz`,
    ]);
    expectRefused(head, "404", "HeadObject", "Not Found");
    const location = await cli("us-east-1", reader, [
      "s3api",
      "get-bucket-location",
      "--bucket",
      trail.bucket,
    ]);
    expect(location.json()).toEqual({ LocationConstraint: trail.bucketRegion });
    const buckets = await s3(reader, ["list-buckets"]);
    expect(buckets.json<{ Buckets: { Name: string }[] }>().Buckets.map((b) => b.Name)).toEqual([
      trail.bucket,
    ]);
  }, 120_000);

  it("takes a file put by the log-archive account's administrators, and refuses the reader's put", async () => {
    const admin = await assumeRole(
      await userKey("log-archive"),
      `arn:aws:iam::${trail.logArchiveAccountId}:role/Admin`,
    );
    const body = join(dir, "placed.json");
    writeFileSync(body, JSON.stringify({ Records: [] }));
    const put = await s3(admin, [
      "put-object",
      "--bucket",
      trail.bucket,
      "--key",
      "placed/by-test.json",
      "--body",
      body,
    ]);
    expect(put.stderr).toBe("");
    expect(put.json<{ ETag: string }>().ETag).toMatch(/^"[0-9a-f]{32}"$/);
    const back = join(dir, "back.json");
    await s3(reader, ["get-object", "--bucket", trail.bucket, "--key", "placed/by-test.json", back]);
    expect(readFileSync(back, "utf8")).toBe(JSON.stringify({ Records: [] }));
    const refused = await s3(reader, [
      "put-object",
      "--bucket",
      trail.bucket,
      "--key",
      "placed/by-reader.json",
      "--body",
      body,
    ]);
    expectRefused(refused, "AccessDenied", "PutObject", "Access Denied");
  }, 120_000);

  it("answers a request signed for another Region with AuthorizationHeaderMalformed naming the bucket's", async () => {
    // The AWS CLI follows this answer to the bucket's Region by itself; a signed request shows the answer.
    const url = new URL(`${h.cloud.url}/${trail.bucket}?list-type=2`);
    const req = {
      method: "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: {
        host: url.host,
        "x-amz-content-sha256": "UNSIGNED-PAYLOAD",
        "x-amz-security-token": reader.sessionToken!,
      },
      body: "",
    };
    signRequest(req, reader, "us-east-1", "s3");
    const res = await fetch(url, { headers: req.headers });
    expect(res.status).toBe(400);
    const xml = await res.text();
    expect(xml).toContain("<Code>AuthorizationHeaderMalformed</Code>");
    expect(xml).toContain(`<Region>${trail.bucketRegion}</Region>`);
  });
});
