import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { CloudTrailRecord } from "../state/model";
import { createSeedState } from "../state/seed";
import type { StateStore } from "../state/store";
import { openS3Objects } from "./s3/s3-objects";
import { recordCloudTrail } from "./trail";
import { deliverDueLogFiles } from "./trail-delivery";

function storeAt(start: number): StateStore & { advance(ms: number): void } {
  const state = createSeedState(7);
  let now = start;
  return {
    state,
    now: () => new Date(now),
    changed: () => {},
    flush: async () => {},
    advance: (ms) => {
      now += ms;
    },
  };
}

// https://docs.aws.amazon.com/awscloudtrail/latest/userguide/get-and-view-cloudtrail-log-files.html ("within an
// average of about 5 minutes"), cloudtrail-log-file-examples.html (file name, one account and Region).
describe("organisation trail delivery", () => {
  it("delivers each record once, never at once, one account and Region per file, about the delay later", () => {
    const store = storeAt(Date.parse("2026-03-01T10:00:00Z"));
    const objects = openS3Objects();
    const aws = store.state.aws;
    const delayMs = aws.organizationTrail.deliveryDelaySeconds * 1000;
    const accounts = aws.accounts.slice(1, 4).map((a) => a.id);
    const recorded: CloudTrailRecord[] = [];
    for (let i = 0; i < 120; i++) {
      const account = accounts[i % accounts.length]!;
      recorded.push(
        recordCloudTrail(store, {
          eventName: "RunInstances",
          eventSource: "ec2.amazonaws.com",
          region: i % 2 ? "us-east-1" : "eu-west-1",
          principalArn: `arn:aws:iam::${account}:user/alice`,
        }),
      );
      store.advance(10_000);
      deliverDueLogFiles(store, objects);
    }
    store.advance(2 * delayMs);
    deliverDueLogFiles(store, objects);
    expect(aws.trailBatches).toEqual([]);

    const keys = objects.keys(aws.organizationTrail.bucket);
    const delivered = new Map<string, { key: string; at: number }>();
    for (const key of keys) {
      const [, account, region] =
        /^AWSLogs\/o-[a-z0-9]+\/(\d{12})\/CloudTrail\/([a-z0-9-]+)\/\d{4}\/\d{2}\/\d{2}\/\1_CloudTrail_\2_\d{8}T\d{4}Z_[A-Za-z0-9]{16}\.json\.gz$/.exec(
          key,
        ) ?? [];
      expect(account, key).toBeDefined();
      const at = Date.parse(objects.head(aws.organizationTrail.bucket, key)!.lastModified);
      const { Records } = JSON.parse(
        gunzipSync(objects.body(aws.organizationTrail.bucket, key)!).toString(),
      ) as {
        Records: CloudTrailRecord[];
      };
      for (const r of Records) {
        expect([r.recipientAccountId, r.awsRegion]).toEqual([account, region]);
        expect(delivered.has(r.eventID)).toBe(false);
        delivered.set(r.eventID, { key, at });
      }
    }
    expect([...delivered.keys()].sort()).toEqual(recorded.map((r) => r.eventID).sort());
    const waits = recorded.map((r) => delivered.get(r.eventID)!.at - Date.parse(r.eventTime));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(delayMs / 2);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1.5 * delayMs);
    const mean = waits.reduce((a, b) => a + b, 0) / waits.length;
    expect(mean).toBeGreaterThan(0.6 * delayMs);
    expect(mean).toBeLessThan(1.4 * delayMs);
    // Out of order: some file is delivered after another although it holds an older record.
    const files = [...new Map([...delivered.values()].map((f) => [f.key, f])).values()];
    const oldest = (key: string) =>
      Math.min(
        ...recorded.filter((r) => delivered.get(r.eventID)!.key === key).map((r) => Date.parse(r.eventTime)),
      );
    const newest = (key: string) =>
      Math.max(
        ...recorded.filter((r) => delivered.get(r.eventID)!.key === key).map((r) => Date.parse(r.eventTime)),
      );
    const late = files.some((later) =>
      files.some((earlier) => earlier.at < later.at && oldest(later.key) < newest(earlier.key)),
    );
    expect(late).toBe(true);
  });
});
