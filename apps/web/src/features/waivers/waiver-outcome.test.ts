import { describe, expect, it } from "vitest";
import { localExpiry, waiverOutcomeOf } from "./waiver-outcome";

describe("waiverOutcomeOf", () => {
  it("an active waiver: its scope by name, its id kept, and its end in the requester's time zone", () => {
    const outcome = waiverOutcomeOf(
      {
        status: "WAIVER_STATUS_ACTIVE",
        expiresAt: "2026-01-02T03:04:00Z",
        scope: "Organizational unit ou-n8k2-n6m9qsh8",
        scopeName: "Workloads-Prod",
        targetScope: { externalId: "ou-n8k2-n6m9qsh8" },
      },
      "Acme",
      "Asia/Tokyo",
    );
    expect(outcome).toEqual({
      kind: "active",
      expiresAt: localExpiry("2026-01-02T03:04:00Z", "Asia/Tokyo"),
      scope: { name: "Workloads-Prod", id: "ou-n8k2-n6m9qsh8" },
    });
    expect(localExpiry("2026-01-02T03:04:00Z", "Asia/Tokyo")).toContain("12:04");
  });

  it("a pending waiver names the tenant whose reviewers decide", () => {
    expect(waiverOutcomeOf({ status: "WAIVER_STATUS_PENDING" }, "Acme")).toEqual({
      kind: "pending",
      tenantName: "Acme",
      scope: null,
    });
  });

  it("a rejected waiver names the reviewer", () => {
    expect(waiverOutcomeOf({ status: "WAIVER_STATUS_REJECTED", reviewer: { name: "Rita" } }, "Acme")).toEqual(
      {
        kind: "rejected",
        reviewer: "Rita",
      },
    );
  });

  it("a cancelled waiver says when it was cancelled, in the requester's time zone, not its expiry", () => {
    const outcome = waiverOutcomeOf(
      {
        status: "WAIVER_STATUS_CANCELLED",
        expiresAt: "2026-12-05T10:00:00Z",
        cancelledAt: "2026-12-04T09:15:00Z",
      },
      "Acme",
      "Asia/Tokyo",
    );
    expect(outcome).toEqual({
      kind: "closed",
      status: "CANCELLED",
      endedAt: localExpiry("2026-12-04T09:15:00Z", "Asia/Tokyo"),
    });
    expect(outcome.kind === "closed" && outcome.endedAt).toMatch(/18:15|6:15 PM/);
  });
});
