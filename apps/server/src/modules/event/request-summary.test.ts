import { describe, expect, it } from "vitest";
import { cloudTrailRecord } from "../../../test/support/trail-objects";
import { trailAuditRecord } from "../../cloud/aws/trail-file";
import type { AuditRecord } from "../../cloud/cloud-provider";
import { summariseRecords } from "./request-summary";

// The requests a batch of trail records is stored as for the impact preview: records of one
// request on one day are counted once, whichever way the request is compared.

const MEMBER = "111122223333";
const OTHER = "444455556666";
const MANAGEMENT = "999988887777";

function audit(input: Parameters<typeof cloudTrailRecord>[0]): AuditRecord {
  return trailAuditRecord(cloudTrailRecord(input) as never);
}

const at = (iso: string) => new Date(iso);

describe("summariseRecords", () => {
  it("counts the calls of one caller, action, account and region on a day as one request", () => {
    const calls = ["2026-05-01T08:00:00Z", "2026-05-01T12:00:00Z", "2026-05-01T09:00:00Z"].map((t) =>
      audit({ account: MEMBER, region: "eu-west-1", time: at(t) }),
    );
    const [summary, ...rest] = summariseRecords(calls, MANAGEMENT);
    expect(rest).toEqual([]);
    expect(summary).toMatchObject({
      day: "2026-05-01",
      account: MEMBER,
      action: "ec2:DescribeInstances",
      refused: false,
      count: 3,
      lastEventId: calls[1]?.id,
      lastSeenAt: at("2026-05-01T12:00:00Z"),
    });
    // The time and the session's id differ per call and are not kept.
    const keys = summary?.request.checks.flatMap((c) => Object.keys(c.context).map((k) => k.toLowerCase()));
    expect(keys).not.toContain("aws:currenttime");
    expect(keys).not.toContain("aws:userid");
  });

  it("keeps apart what a guardrail could tell apart: region, account, day, refusal", () => {
    const base = { account: MEMBER, region: "eu-west-1", time: at("2026-05-01T08:00:00Z") };
    const summaries = summariseRecords(
      [
        audit(base),
        audit({ ...base, region: "us-east-1" }),
        audit({ ...base, account: OTHER }),
        audit({ ...base, time: at("2026-05-02T08:00:00Z") }),
        audit({ ...base, errorCode: "Client.UnauthorizedOperation", errorMessage: "denied" }),
      ],
      MANAGEMENT,
    );
    expect(summaries).toHaveLength(5);
    expect(summaries.every((s) => s.count === 1)).toBe(true);
    // The same request on two days is one stored request, counted per day.
    const [first, , , nextDay, refused] = summaries;
    expect(nextDay?.requestKey).toBe(first?.requestKey);
    expect(refused?.requestKey).not.toBe(first?.requestKey);
    expect(refused?.refused).toBe(true);
  });

  it("compares the requests of actions whose parameters guardrails read by those parameters", () => {
    const launch = (instanceType: string, hour: string) =>
      audit({
        account: MEMBER,
        region: "eu-west-1",
        time: at(`2026-05-01T${hour}:00:00Z`),
        eventName: "RunInstances",
        requestParameters: { instanceType, instancesSet: { items: [{ imageId: "ami-1" }] } },
      });
    const summaries = summariseRecords(
      [launch("t3.micro", "08"), launch("m5.large", "09"), launch("t3.micro", "10")],
      MANAGEMENT,
    );
    expect(summaries.map((s) => [s.request.checks[0]?.context["ec2:InstanceType"], s.count])).toEqual([
      ["t3.micro", 2],
      ["m5.large", 1],
    ]);
  });

  it("leaves out the management account, which no SCP restricts", () => {
    const time = at("2026-05-01T08:00:00Z");
    const summaries = summariseRecords(
      [
        audit({ account: MANAGEMENT, region: "eu-west-1", time }),
        audit({ account: MANAGEMENT, region: "eu-west-1", time }),
      ],
      MANAGEMENT,
    );
    expect(summaries).toEqual([]);
  });
});
