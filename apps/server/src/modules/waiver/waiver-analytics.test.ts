import { describe, expect, it } from "vitest";
import { waiverAnalytics } from "./waiver-analytics";
import type { AnalyticsWaiverRow } from "./waiver-analytics-repository";

const row = (status: string, approved: boolean): AnalyticsWaiverRow => ({
  bundleId: "b1",
  bundleName: "S3 guard",
  policyKey: "ABCDEFG",
  policySlug: "s3-guard",
  status,
  expiresAt: approved ? new Date("2026-12-05T10:00:00Z") : null,
  durationSeconds: 3_600,
  target: "917343093631",
  targetName: "payments-prod",
  used: false,
});

describe("waiver analytics", () => {
  it("counts no decision while the only request is pending, so 0% is not read as all refused", () => {
    const [policy] = waiverAnalytics([row("PENDING", false)]);
    expect(policy).toMatchObject({ requests: 1, decided: 0, approvalRate: 0 });
  });

  it("counts approvals and rejections as decisions", () => {
    const [policy] = waiverAnalytics([row("ACTIVE", true), row("REJECTED", false), row("PENDING", false)]);
    expect(policy).toMatchObject({ requests: 3, decided: 2, approvalRate: 0.5 });
  });

  it("names the scope most waivers were for by its name, and by its id when the hierarchy holds none", () => {
    const [named] = waiverAnalytics([row("ACTIVE", true), row("ACTIVE", true), row("ACTIVE", true)]);
    expect(named?.suggestionText).toBe(
      "3 of 3 waivers were for payments-prod: consider excluding that scope from the bundle.",
    );
    const unknown = { ...row("ACTIVE", true), targetName: null };
    const [byId] = waiverAnalytics([unknown, unknown, unknown]);
    expect(byId?.suggestionText).toContain("waivers were for 917343093631:");
  });
});
