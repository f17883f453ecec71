import { describe, expect, it } from "vitest";
import { awsDefinition, bundle, NOW } from "../../../test/bundles";
import { PolicyLimitExceededError } from "../compile-input";
import { compileScp } from "./compile-scp";
import { DEFAULT_SCP_LIMITS, LOWER_SCP_LIMITS } from "./pack-scps";
import { principalWaiverCapacity } from "./waiver-capacity";
import { waiverWindowEnd } from "./waiver-window";

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);

describe("shared waiver windows", () => {
  it("ends a waiver of up to a day on the next full hour, UTC", () => {
    expect(waiverWindowEnd(at("2026-03-01T08:12:30Z"), 8 * HOUR)).toEqual(at("2026-03-01T17:00:00Z"));
    expect(waiverWindowEnd(at("2026-03-01T08:59:59Z"), 24 * HOUR)).toEqual(at("2026-03-02T09:00:00Z"));
  });

  it("keeps an end that is already on the hour, never ending a waiver early", () => {
    expect(waiverWindowEnd(at("2026-03-01T08:00:00Z"), 2 * HOUR)).toEqual(at("2026-03-01T10:00:00Z"));
    for (let minute = 0; minute < 120; minute += 7) {
      const start = new Date(NOW.getTime() + minute * 60_000);
      const end = waiverWindowEnd(start, 5 * HOUR);
      expect(end.getTime()).toBeGreaterThanOrEqual(start.getTime() + 5 * HOUR);
      expect(end.getTime() - (start.getTime() + 5 * HOUR)).toBeLessThan(HOUR);
    }
  });

  it("ends a waiver of more than a day on the next 6-hour boundary (00, 06, 12, 18 UTC)", () => {
    expect(waiverWindowEnd(at("2026-03-01T08:12:00Z"), 48 * HOUR)).toEqual(at("2026-03-03T12:00:00Z"));
    expect(waiverWindowEnd(at("2026-03-01T13:00:00Z"), 72 * HOUR)).toEqual(at("2026-03-04T18:00:00Z"));
  });

  it("gives waivers requested within the same hour one end, so the SCP holds one window for them", () => {
    const definition = awsDefinition("require-ec2-imdsv2");
    const waivers = [1, 14, 37, 59].map((minute, i) => ({
      id: `w${i}`,
      key: "7KQ2M9X",
      expiresAt: waiverWindowEnd(new Date(NOW.getTime() + minute * 60_000), 8 * HOUR),
      principalArn: `arn:aws:iam::111122223333:role/team-${i}`,
    }));
    const shared = JSON.parse(compileScp(bundle({ definition, waivers })).content);
    const alone = JSON.parse(compileScp(bundle({ definition, waivers: waivers.slice(0, 1) })).content);
    // One window with the waivers and one after it, whether one waiver or four.
    expect(shared.Statement).toHaveLength(alone.Statement.length);
    expect(JSON.stringify(shared)).toContain("team-3");
  });
});

describe("SCP quotas as parameters", () => {
  const definition = awsDefinition("require-ec2-imdsv2");
  const distinct = (i: number) => new Date(NOW.getTime() + 8 * HOUR + (i + 1) * 60_000);

  it("refuses a document over the character quota it is given, naming that quota", () => {
    const waivers = Array.from({ length: 24 }, (_, i) => ({
      id: `w${i}`,
      key: "7KQ2M9X",
      expiresAt: distinct(i),
      principalArn: `arn:aws:iam::111122223333:role/r${i}`,
    }));
    const input = bundle({ definition, waivers });
    const length = compileScp({ ...input, scpMaxCharacters: 100_000 }).content.length;
    expect(length).toBeGreaterThan(DEFAULT_SCP_LIMITS.characters);
    expect(() => compileScp(input)).toThrow(PolicyLimitExceededError);
    expect(() => compileScp(input)).toThrow(/10240-character limit/);
    expect(compileScp({ ...input, scpMaxCharacters: length }).content).toHaveLength(length);
  });

  it("fits more principal waivers with shared windows than with one end per waiver, and more under the doubled quotas", () => {
    const input = bundle({ definition });
    const oneEach = principalWaiverCapacity(input, LOWER_SCP_LIMITS, distinct);
    const oneWindow = principalWaiverCapacity(input, LOWER_SCP_LIMITS, () => waiverWindowEnd(NOW, 8 * HOUR));
    const doubled = principalWaiverCapacity(input, DEFAULT_SCP_LIMITS, () => waiverWindowEnd(NOW, 8 * HOUR));
    expect(oneEach).toBeGreaterThanOrEqual(1);
    expect(oneWindow).toBeGreaterThan(oneEach * 5);
    expect(doubled).toBeGreaterThan(oneWindow);
  });
});
