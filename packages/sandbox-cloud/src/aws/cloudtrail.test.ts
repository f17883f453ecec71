import { describe, expect, it } from "vitest";
import type { CloudTrailRecord } from "../state/model";
import type { StateStore } from "../state/store";
import { createLookupRateLimit, handleCloudTrail } from "./cloudtrail";
import { AwsError } from "./common";

const NOW = Date.parse("2026-06-01T12:00:00Z");

const CALLER = { accountId: "111111111111", region: "us-east-1" };

function record(n: number, more: Partial<CloudTrailRecord> = {}): CloudTrailRecord {
  return {
    eventVersion: "1.08",
    eventID: `event-${n}`,
    eventTime: new Date(NOW - (200 - n) * 60_000).toISOString(),
    eventName: "RunInstances",
    eventSource: "ec2.amazonaws.com",
    awsRegion: "us-east-1",
    sourceIPAddress: "10.0.0.1",
    userAgent: "test",
    userIdentity: { type: "IAMUser", userName: "alice", arn: "arn:aws:iam::111111111111:user/alice" },
    requestParameters: null,
    responseElements: null,
    resources: [],
    readOnly: false,
    recipientAccountId: "111111111111",
    eventType: "AwsApiCall",
    managementEvent: true,
    ...more,
  };
}

function storeOf(trail: CloudTrailRecord[]): StateStore {
  return {
    state: { aws: { trail } } as unknown as StateStore["state"],
    now: () => new Date(NOW),
    changed: () => {},
    flush: async () => {},
  };
}

type Page = { Events: { EventId: string }[]; NextToken?: string };
const lookup = (store: StateStore, input: Record<string, unknown>, caller = CALLER) =>
  handleCloudTrail(store, caller, "LookupEvents", input) as Page;

describe("LookupEvents paging", () => {
  it("lists every record once, newest first, page after page", () => {
    const trail = Array.from({ length: 120 }, (_, i) => record(i));
    const store = storeOf(trail);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = lookup(store, { MaxResults: 50, ...(token ? { NextToken: token } : {}) });
      seen.push(...page.Events.map((e) => e.EventId));
      token = page.NextToken;
    } while (token);
    expect(seen).toEqual(trail.map((r) => r.eventID).reverse());
  });

  it("continues after the same record when older records were trimmed between pages", () => {
    const trail = Array.from({ length: 120 }, (_, i) => record(i));
    const store = storeOf(trail);
    const first = lookup(store, { MaxResults: 50 });
    trail.splice(0, 10);
    const second = lookup(store, { MaxResults: 50, NextToken: first.NextToken });
    expect(second.Events[0]?.EventId).toBe("event-69");
  });

  it("refuses a token given for other parameters, another account or another Region", () => {
    const store = storeOf(Array.from({ length: 60 }, (_, i) => record(i)));
    const { NextToken } = lookup(store, { MaxResults: 10 });
    expect(() =>
      lookup(store, {
        NextToken,
        LookupAttributes: [{ AttributeKey: "EventName", AttributeValue: "RunInstances" }],
      }),
    ).toThrow(expect.objectContaining({ code: "InvalidNextTokenException" }));
    expect(() => lookup(store, { NextToken }, { ...CALLER, region: "eu-west-1" })).toThrow(AwsError);
    expect(lookup(store, { NextToken, MaxResults: 10 }).Events).toHaveLength(10);
  });

  it("refuses a token it did not give", () => {
    const store = storeOf(Array.from({ length: 60 }, (_, i) => record(i)));
    for (const token of ["not-a-token", Buffer.from("12:event-999").toString("base64url")]) {
      expect(() => lookup(store, { NextToken: token })).toThrow(AwsError);
    }
  });
});

// https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html
describe("LookupEvents scope", () => {
  it("answers the caller's account in the endpoint's Region, over the last 90 days", () => {
    const day = 86_400_000;
    const store = storeOf([
      record(1),
      record(2, { recipientAccountId: "222222222222" }),
      record(3, { awsRegion: "eu-west-1" }),
      record(4, { eventTime: new Date(NOW - 91 * day).toISOString() }),
      record(5, { eventTime: new Date(NOW - 89 * day).toISOString() }),
    ]);
    expect(lookup(store, {}).Events.map((e) => e.EventId)).toEqual(["event-5", "event-1"]);
    expect(lookup(store, { StartTime: (NOW - 100 * day) / 1000 }).Events).toHaveLength(2);
    expect(
      lookup(store, {}, { accountId: "222222222222", region: "us-east-1" }).Events.map((e) => e.EventId),
    ).toEqual(["event-2"]);
    expect(lookup(store, {}, { ...CALLER, region: "eu-west-1" }).Events.map((e) => e.EventId)).toEqual([
      "event-3",
    ]);
    expect(lookup(store, { EventCategory: "insight" }).Events).toEqual([]);
    expect(() => lookup(store, { EventCategory: "management" })).toThrow(
      expect.objectContaining({ code: "InvalidEventCategoryException" }),
    );
  });

  it("allows two calls per second per account and Region, and throttles the third", () => {
    const allow = createLookupRateLimit(2);
    expect([allow("a/us-east-1", 0), allow("a/us-east-1", 10), allow("a/us-east-1", 20)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(allow("a/eu-west-1", 20)).toBe(true);
    expect(allow("b/us-east-1", 20)).toBe(true);
    expect(allow("a/us-east-1", 1000)).toBe(true);
    const store = storeOf([record(1)]);
    const limit = createLookupRateLimit(2);
    const call = () => handleCloudTrail(store, CALLER, "LookupEvents", {}, limit);
    call();
    call();
    expect(call).toThrow(expect.objectContaining({ code: "ThrottlingException" }));
  });
});
