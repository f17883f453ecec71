import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { describe, expect, it } from "vitest";
import { eventFilterOf, eventsPagination, eventUserName, neighbours, timeRangeOf } from "./event-filter";

describe("eventFilterOf", () => {
  it("sends no filter for a bare address", () => {
    expect(eventFilterOf({})).toEqual({
      type: [],
      resourceName: undefined,
      resourceType: [],
      policyName: [],
      scope: [],
      user: [],
      policyId: undefined,
      timeRange: undefined,
      cloudProviders: [],
    });
  });

  it("reads the days as the reader's local midnights, the last day included", () => {
    const range = timeRangeOf("2026-11-01", "2026-11-02");
    expect(Number(range?.start?.seconds) * 1000).toBe(new Date(2026, 10, 1).getTime());
    expect(Number(range?.end?.seconds) * 1000).toBe(new Date(2026, 10, 3).getTime());
    expect(timeRangeOf(undefined, undefined)).toBeUndefined();
    expect(timeRangeOf("2026-11-01", undefined)?.end).toBeUndefined();
  });

  it.each([
    [{ type: "prevented" as const }, { type: [EventType.PREVENTION] }],
    [
      { type: ["alert", "historical-drift", "dismissed"] as ("alert" | "historical-drift" | "dismissed")[] },
      { type: [EventType.ALERT, EventType.HISTORICAL_DRIFT, EventType.DISMISSED] },
    ],
    [{ resourceName: "  bucket-1 " }, { resourceName: "bucket-1" }],
    [{ resourceName: "   " }, { resourceName: undefined }],
    [{ resourceName: "b" }, { resourceName: undefined }],
    [{ provider: "azure" as const }, { cloudProviders: [CloudProvider.AZURE] }],
    [
      { scope: ["ou-1"], user: ["ada"], policyId: "b-1" },
      { scope: ["ou-1"], user: ["ada"], policyId: "b-1" },
    ],
    [
      { resourceType: ["AWS::S3::Bucket"], policyName: ["No public buckets"] },
      { resourceType: ["AWS::S3::Bucket"], policyName: ["No public buckets"] },
    ],
  ])("%j", (search, expected) => {
    expect(eventFilterOf(search)).toMatchObject(expected);
  });
});

describe("event pages", () => {
  it.each([
    [undefined, {}],
    [{ end: "k2" }, { end: "k2" }],
    [{ start: "k1" }, { start: "k1" }],
  ])("cursor %j", (cursor, expected) => {
    expect(eventsPagination(cursor).position).toEqual({ case: "cursor", value: expected });
  });

  it.each([
    [undefined, {}],
    [{ position: { case: "totalPages", value: 3 } }, {}],
    [{ position: { case: "cursor", value: {} } }, { previous: undefined, next: undefined }],
    [
      { position: { case: "cursor", value: { start: "a", end: "b" } } },
      { previous: { start: "a" }, next: { end: "b" } },
    ],
    [{ position: { case: "cursor", value: { end: "b" } } }, { previous: undefined, next: { end: "b" } }],
  ])("neighbours of %j", (pagination, expected) => {
    expect(neighbours(pagination as never)).toEqual(expected);
  });
});

describe("eventUserName", () => {
  it.each([
    [undefined, "Unknown User"],
    [{ name: "", identifier: "" }, "Unknown User"],
    [{ name: "  ", identifier: "arn:aws:iam::1:user/ada" }, "arn:aws:iam::1:user/ada"],
    [
      { name: "Auto-Service 1b4e2...", identifier: "1b4e28ba-2fa1-11d2-883f-0016d3cca427" },
      "Auto-Service 1b4e2...",
    ],
    [{ name: "Ada", identifier: "ada@example.com" }, "Ada"],
  ])("%j -> %s", (user, expected) => {
    expect(eventUserName(user)).toBe(expected);
  });
});
