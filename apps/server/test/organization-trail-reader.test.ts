import { createServer, request, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrailReader, MAX_FILE_ATTEMPTS } from "../src/cloud/aws/trail-reader";
import { createTrailBucket, type TrailSettings } from "../src/cloud/aws/trail-s3";
import { verifyTrail } from "../src/cloud/aws/trail-verify";
import type { TrailBatch, TrailFileLedger, TrailFileOutcome } from "../src/cloud/cloud-provider";
import { type MotoServer, motoAvailable, startMotoServer } from "./support/moto-server";
import {
  cloudTrailRecord,
  createTrailBucketIn,
  gzipLogFile,
  logFileKey,
  putObject,
  TEST_KEYS,
  testS3,
} from "./support/trail-objects";

// Organisation-trail log files put into moto's S3 in the layout AWS documents
// (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-find-log-files.html),
// read by Palisade's trail reader.

const MANAGEMENT = "111111111111";
const MEMBERS = ["222222222222", "333333333333"];
const REGIONS = ["us-east-1", "eu-west-1"];
const BUCKET = "org-trail-logs";
const PREFIX = "org";
const HOUR = 3_600_000;

/** What the event pipeline keeps between reads: the saved position and the file ledger. */
function memoryStore() {
  const files = new Map<string, TrailFileOutcome>();
  const records: string[] = [];
  let position: string | undefined;
  let doneCount = 0;
  const ledger: TrailFileLedger = {
    filesOf: async (prefix, fromDay) =>
      new Map(
        [...files.values()]
          .filter((f) => f.prefix === prefix && f.day >= fromDay)
          .map((f) => [f.key, { state: f.state, attempts: f.attempts }]),
      ),
  };
  const onBatch = async (batch: TrailBatch) => {
    for (const r of batch.records) records.push(r.id);
    for (const f of batch.files) files.set(f.key, f);
    if (batch.done) {
      position = batch.done.position;
      doneCount += 1;
    }
  };
  return {
    files,
    records,
    ledger,
    onBatch,
    get position() {
      return position;
    },
    get doneCount() {
      return doneCount;
    },
  };
}

const settings = (bucket = BUCKET, keyPrefix = PREFIX): TrailSettings => ({
  bucket,
  keyPrefix,
  bucketRegion: "us-east-1",
  readerRoleArn: "arn:aws:iam::999999999999:role/palisade-trail-reader",
  readerExternalId: "",
  backfillDays: 7,
});

const fast = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 };

/** A proxy in front of moto that answers chosen S3 requests with an S3 error document. */
function faultProxy(
  target: string,
  fault: (method: string, path: string) => { status: number; code: string } | undefined,
) {
  const server: Server = createServer((req, res) => {
    const injected = req.method && req.url ? fault(req.method, req.url) : undefined;
    if (injected) {
      req.resume();
      res.writeHead(injected.status, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${injected.code}</Code><Message>${injected.code}</Message><RequestId>1</RequestId></Error>`,
      );
      return;
    }
    const url = new URL(req.url ?? "/", target);
    const upstream = request(
      url,
      { method: req.method, headers: { ...req.headers, host: url.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

describe.skipIf(!motoAvailable())("organisation trail read from moto's S3", () => {
  let moto: MotoServer;
  const now = new Date();
  const put = async (account: string, region: string, at: Date, records: Record<string, unknown>[]) => {
    const key = logFileKey(PREFIX, account, region, at);
    await putObject(testS3(moto.url), BUCKET, key, gzipLogFile(records));
    return key;
  };
  const reader = (endpoint = moto.url, trail = settings(), homeRegion = "us-east-1") =>
    createTrailReader(
      createTrailBucket({ trail, endpoint, baseCredentials: TEST_KEYS, retry: fast }),
      trail,
      homeRegion,
      () => now,
    );
  let initial = 0;

  beforeAll(async () => {
    moto = await startMotoServer();
    await createTrailBucketIn(testS3(moto.url), BUCKET);
    for (const account of [MANAGEMENT, ...MEMBERS])
      for (const region of REGIONS)
        for (const hoursAgo of [3, 2, 1]) {
          const at = new Date(now.getTime() - hoursAgo * HOUR);
          await put(account, region, at, [
            cloudTrailRecord({ account, region, time: new Date(at.getTime() - 60_000) }),
            cloudTrailRecord({ account, region, time: new Date(at.getTime() - 30_000) }),
          ]);
          initial += 2;
        }
    // Delivered before the backfill window of a first connection: not read.
    await put(MEMBERS[0]!, "us-east-1", new Date(now.getTime() - 10 * 24 * HOUR), [
      cloudTrailRecord({
        account: MEMBERS[0]!,
        region: "us-east-1",
        time: new Date(now.getTime() - 10 * 24 * HOUR),
      }),
    ]);
  });
  afterAll(async () => {
    await moto?.stop();
  });

  it("reads every record of the backfill once, a late file once, and nothing on a re-run", async () => {
    const store = memoryStore();
    const first = await reader().read(store.position, store.ledger, store.onBatch);
    expect(first.records).toBe(initial);
    expect(new Set(store.records).size).toBe(initial);
    expect(first.accounts).toEqual([MANAGEMENT, ...MEMBERS]);
    expect(first.regions).toEqual(["eu-west-1", "us-east-1"]);
    expect(first.issues).toEqual([]);
    const floors = JSON.parse(store.position ?? "{}").floors as Record<string, string>;
    // The re-read window: two days behind the newest folder.
    expect(floors[`${MEMBERS[1]}/eu-west-1`]).toBe(
      new Date(now.getTime() - 2 * 24 * HOUR - 1 * HOUR).toISOString().slice(0, 10).replaceAll("-", "/"),
    );

    // Delivered after the files above but named earlier than the newest one read.
    const late = cloudTrailRecord({
      account: MEMBERS[1]!,
      region: "eu-west-1",
      time: new Date(now.getTime() - 100 * 60_000),
    });
    await put(MEMBERS[1]!, "eu-west-1", new Date(now.getTime() - 90 * 60_000), [late]);
    const second = await reader().read(store.position, store.ledger, store.onBatch);
    expect(second).toMatchObject({ files: 1, records: 1 });
    expect(store.records.at(-1)).toBe(late.eventID);

    const third = await reader().read(store.position, store.ledger, store.onBatch);
    expect(third).toMatchObject({ files: 0, records: 0 });
    expect(store.records).toHaveLength(initial + 1);
  });

  it("retries a corrupt file a bounded number of times, reads the others, and keeps the floor at it meanwhile", async () => {
    const store = memoryStore();
    await reader().read(store.position, store.ledger, store.onBatch);
    const account = MEMBERS[0]!;
    const at = new Date(now.getTime() - 20 * 60_000);
    const records = [0, 1, 2, 3].map((i) =>
      cloudTrailRecord({ account, region: "us-east-1", time: new Date(at.getTime() - i * 1000) }),
    );
    const whole = gzipLogFile(records);
    const truncatedKey = logFileKey(PREFIX, account, "us-east-1", at);
    await putObject(
      testS3(moto.url),
      BUCKET,
      truncatedKey,
      whole.subarray(0, Math.floor(whole.length * 0.8)),
    );
    const otherSchemaKey = logFileKey(PREFIX, account, "eu-west-1", at);
    await putObject(
      testS3(moto.url),
      BUCKET,
      otherSchemaKey,
      gzipSync(JSON.stringify({ logs: [{ id: 1 }] })),
    );
    const good = cloudTrailRecord({ account: MANAGEMENT, region: "us-east-1", time: at });
    await put(MANAGEMENT, "us-east-1", at, [good]);

    const out = await reader().read(store.position, store.ledger, store.onBatch);
    expect(store.records).toContain(good.eventID);
    const byKey = new Map(out.unread.map((f) => [f.key, f]));
    expect(byKey.get(truncatedKey)).toMatchObject({ state: "failed", attempts: 1 });
    expect(byKey.get(truncatedKey)?.error).toMatch(/^TRAIL_FILE_CORRUPT: /);
    expect(byKey.get(otherSchemaKey)?.error).toMatch(/^TRAIL_FILE_SCHEMA: .*no "Records" array/);
    // The records before the cut are not lost.
    const salvaged = records.filter((r) => store.records.includes(r.eventID as string));
    expect(salvaged.length).toBeGreaterThan(0);
    expect(salvaged.length).toBeLessThan(records.length);
    const floor = () =>
      (JSON.parse(store.position ?? "{}").floors as Record<string, string>)[`${account}/us-east-1`];
    expect(floor()! <= truncatedKey.split("/").slice(-4, -1).join("/")).toBe(true);

    for (let attempt = 2; attempt <= MAX_FILE_ATTEMPTS; attempt += 1) {
      const again = await reader().read(store.position, store.ledger, store.onBatch);
      expect(again.unread.find((f) => f.key === truncatedKey)).toMatchObject({
        attempts: attempt,
        state: attempt === MAX_FILE_ATTEMPTS ? "given_up" : "failed",
      });
    }
    const after = await reader().read(store.position, store.ledger, store.onBatch);
    expect(after).toMatchObject({ files: 0, records: 0, unread: [] });
    expect(store.files.get(truncatedKey)?.state).toBe("given_up");
  });

  it("names a region the trail does not cover, and still reads the others", async () => {
    const store = memoryStore();
    const out = await reader(moto.url, settings(), "ap-southeast-2").read(
      undefined,
      store.ledger,
      store.onBatch,
    );
    expect(out.records).toBeGreaterThan(0);
    expect(out.issues.map((i) => i.code)).toEqual(["TRAIL_REGION_NOT_COVERED"]);
    expect(out.issues[0]?.message).toContain("ap-southeast-2");
  });

  it("names a missing bucket and a prefix without an organisation trail, and moves no position", async () => {
    const store = memoryStore();
    await expect(
      reader(moto.url, settings("no-such-trail-bucket")).read(undefined, store.ledger, store.onBatch),
    ).rejects.toMatchObject({
      code: "TRAIL_BUCKET_NOT_FOUND",
    });
    await expect(
      reader(moto.url, settings(BUCKET, "elsewhere")).read(undefined, store.ledger, store.onBatch),
    ).rejects.toMatchObject({
      code: "TRAIL_NOT_FOUND",
    });
    expect(store.doneCount).toBe(0);
  });

  it("names a bucket the role cannot read, without moving the position past the unread file", async () => {
    const store = memoryStore();
    const denied = await faultProxy(moto.url, (method, path) =>
      method === "GET" && path.includes(`/${MEMBERS[1]}/CloudTrail/us-east-1/`) && path.includes(".json.gz")
        ? { status: 403, code: "AccessDenied" }
        : undefined,
    );
    try {
      const error = await reader(denied.url)
        .read(undefined, store.ledger, store.onBatch)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "TRAIL_ACCESS_DENIED" });
      expect(String((error as Error).message)).toMatch(/s3:GetObject.*kms:Decrypt/);
      expect(store.doneCount).toBe(0);
      expect([...store.files.values()].some((f) => f.prefix === `${MEMBERS[1]}/us-east-1`)).toBe(false);
    } finally {
      await denied.close();
    }
    // With access granted, the same position reads everything.
    await reader().read(store.position, store.ledger, store.onBatch);
    expect(store.doneCount).toBe(1);
    const read = [...store.files.values()].filter((f) => f.prefix === `${MEMBERS[1]}/us-east-1`);
    expect(read.length).toBeGreaterThanOrEqual(3);
    expect(read.every((f) => f.state === "read")).toBe(true);
  });

  it("names a bucket in another region than the one given", async () => {
    // S3 answers a request signed for the wrong region with PermanentRedirect
    // (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html).
    const redirect = await faultProxy(moto.url, (method, path) =>
      method === "GET" && path.includes("list-type=2")
        ? { status: 301, code: "PermanentRedirect" }
        : undefined,
    );
    try {
      const store = memoryStore();
      const error = await reader(redirect.url)
        .read(undefined, store.ledger, store.onBatch)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "TRAIL_WRONG_REGION" });
      expect(String((error as Error).message)).toContain("Set the bucket's region on the connector");
      expect(store.doneCount).toBe(0);
    } finally {
      await redirect.close();
    }
  });

  it("renews an expired role session once, and names a session S3 keeps refusing", async () => {
    let refusals = 1;
    const once = await faultProxy(moto.url, (method, path) =>
      method === "GET" && path.includes("list-type=2") && refusals-- > 0
        ? { status: 400, code: "ExpiredToken" }
        : undefined,
    );
    try {
      const store = memoryStore();
      const out = await reader(once.url).read(undefined, store.ledger, store.onBatch);
      expect(out.records).toBeGreaterThan(0);
    } finally {
      await once.close();
    }
    const always = await faultProxy(moto.url, (method, path) =>
      method === "GET" && path.includes("list-type=2") ? { status: 400, code: "ExpiredToken" } : undefined,
    );
    try {
      const store = memoryStore();
      await expect(reader(always.url).read(undefined, store.ledger, store.onBatch)).rejects.toMatchObject({
        code: "TRAIL_SESSION_EXPIRED",
      });
      expect(store.doneCount).toBe(0);
    } finally {
      await always.close();
    }
  });

  it("TestConnector says which accounts and regions the trail shows and how old its newest record is", async () => {
    const trail = settings();
    const checks = await verifyTrail(
      createTrailBucket({ trail, endpoint: moto.url, baseCredentials: TEST_KEYS, retry: fast }),
      trail,
      "us-east-1",
      () => now,
    );
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ["Assume the trail reader role", true],
      ["Read the organisation trail", true],
      ["Regions covered", true],
      ["Newest record", true],
    ]);
    expect(checks[1]?.message).toContain("3 account(s) in 2 region(s): eu-west-1, us-east-1");
    expect(checks[3]?.message).toMatch(/The newest record is \d+ minute\(s\) old/);

    const elsewhere = await verifyTrail(
      createTrailBucket({ trail, endpoint: moto.url, baseCredentials: TEST_KEYS, retry: fast }),
      trail,
      "sa-east-1",
      () => now,
    );
    expect(elsewhere.find((c) => c.name === "Regions covered")).toMatchObject({ ok: false });
    expect(elsewhere.find((c) => c.name === "Regions covered")?.message).toMatch(
      /^TRAIL_REGION_NOT_COVERED: /,
    );
    const missing = await verifyTrail(
      createTrailBucket({
        trail: settings("no-such-trail-bucket"),
        endpoint: moto.url,
        baseCredentials: TEST_KEYS,
        retry: fast,
      }),
      settings("no-such-trail-bucket"),
      "us-east-1",
    );
    expect(missing.at(-1)).toMatchObject({ ok: false });
    expect(missing.at(-1)?.message).toMatch(/^TRAIL_BUCKET_NOT_FOUND: /);
  });
});
