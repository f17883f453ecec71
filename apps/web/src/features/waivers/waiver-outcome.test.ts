import { describe, expect, it } from "vitest";
import { localExpiry, waiverOutcomeOf } from "./waiver-outcome";

describe("waiverOutcomeOf", () => {
  it("an active waiver: its scope and its end in the requester's time zone", () => {
    const outcome = waiverOutcomeOf(
      { status: "WAIVER_STATUS_ACTIVE", expiresAt: "2026-01-02T03:04:00Z", scope: "Account 111122223333" },
      "Acme",
      "Asia/Tokyo",
    );
    expect(outcome).toEqual({
      kind: "active",
      expiresAt: localExpiry("2026-01-02T03:04:00Z", "Asia/Tokyo"),
      scope: "Account 111122223333",
    });
    expect(localExpiry("2026-01-02T03:04:00Z", "Asia/Tokyo")).toContain("12:04");
  });

  it("a pending waiver names the tenant whose reviewers decide", () => {
    expect(waiverOutcomeOf({ status: "WAIVER_STATUS_PENDING" }, "Acme")).toEqual({
      kind: "pending",
      tenantName: "Acme",
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
});
