import { describe, expect, it } from "vitest";
import { logFileDay } from "./trail-layout";
import { decodePosition, encodePosition, floorOf, nextFloor, RE_READ_WINDOW_DAYS } from "./trail-position";

const now = new Date("2026-03-10T12:00:00Z");

describe("organisation trail position", () => {
  it("starts a first connection, another trail's or LookupEvents' cursor at the backfill", () => {
    const fresh = decodePosition(undefined, "s3://logs/", 7, now);
    expect(floorOf(fresh, "111111111111/us-east-1")).toBe("2026/03/03");
    const saved = encodePosition({ ...fresh, floors: { "111111111111/us-east-1": "2026/03/08" } });
    expect(floorOf(decodePosition(saved, "s3://logs/", 7, now), "111111111111/us-east-1")).toBe("2026/03/08");
    expect(floorOf(decodePosition(saved, "s3://other/", 30, now), "111111111111/us-east-1")).toBe(
      "2026/02/08",
    );
    const lookupCursor = Buffer.from(JSON.stringify({ time: now.toISOString(), ids: [] })).toString(
      "base64url",
    );
    expect(decodePosition(lookupCursor, "s3://logs/", 7, now).floors).toEqual({});
  });

  it(`keeps the floor ${RE_READ_WINDOW_DAYS} days behind the newest folder, never past an unread file, never back`, () => {
    expect(nextFloor("2026/03/01", "2026/03/10", [])).toBe("2026/03/08");
    expect(nextFloor("2026/03/01", "2026/03/10", ["2026/03/04", "2026/03/09"])).toBe("2026/03/04");
    expect(nextFloor("2026/03/05", "2026/03/10", ["2026/03/04"])).toBe("2026/03/05");
    expect(nextFloor("2026/03/05", undefined, [])).toBe("2026/03/05");
    // Across a month's end.
    expect(nextFloor("2026/02/20", "2026/03/01", [])).toBe("2026/02/27");
  });

  it("takes only the log files AWS names under a region folder", () => {
    const p = { orgId: "o-a1b2c3d4e5", accountId: "111122223333", region: "us-east-2" };
    const folder = "AWSLogs/o-a1b2c3d4e5/111122223333/CloudTrail/us-east-2/";
    // The example of https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-log-file-examples.html
    const name = "111122223333_CloudTrail_us-east-2_20150801T0210Z_Mu0KsOhtH1ar15ZZ.json.gz";
    expect(logFileDay(folder, p, `${folder}2015/08/01/${name}`)).toBe("2015/08/01");
    expect(
      logFileDay(folder, p, `${folder}2015/08/01/${name.replace("us-east-2", "eu-west-1")}`),
    ).toBeUndefined();
    expect(logFileDay(folder, p, `${folder}2015/08/01/notes.txt`)).toBeUndefined();
    expect(logFileDay(folder, p, `${folder}2015/08/${name}`)).toBeUndefined();
  });
});
