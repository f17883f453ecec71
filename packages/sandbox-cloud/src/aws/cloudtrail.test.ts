import { describe, expect, it } from "vitest";
import type { CloudTrailRecord } from "../state/model";
import type { StateStore } from "../state/store";
import { handleCloudTrail } from "./cloudtrail";
import { AwsError } from "./common";

const NOW = Date.parse("2026-06-01T12:00:00Z");

function record(n: number): CloudTrailRecord {
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
const lookup = (store: StateStore, input: Record<string, unknown>) =>
  handleCloudTrail(store, "LookupEvents", input) as Page;

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

  it("refuses a token it did not give", () => {
    const store = storeOf(Array.from({ length: 60 }, (_, i) => record(i)));
    for (const token of ["not-a-token", Buffer.from("12:event-999").toString("base64url")]) {
      expect(() => lookup(store, { NextToken: token })).toThrow(AwsError);
    }
  });
});
