import { describe, expect, it } from "vitest";
import { driftWindow, withinDriftWindow } from "./drift-window";

const MINUTE = 60_000;
const at = Date.parse("2026-11-27T10:00:00Z");

describe("drift pairing windows", () => {
  it("AWS: a state within seconds of the request is the request's", () => {
    const aws = driftWindow("aws");
    expect(withinDriftWindow(aws, at, at + 4_000)).toBe(true);
    expect(withinDriftWindow(aws, at, at - 4_000)).toBe(true);
    expect(withinDriftWindow(aws, at, at + 6_000)).toBe(false);
  });

  it("Azure reports compliance around 15 minutes after a write (get-compliance-data#evaluation-triggers): a state up to 30 minutes later is the request's", () => {
    const azure = driftWindow("azure");
    expect(withinDriftWindow(azure, at, at + 15 * MINUTE)).toBe(true);
    expect(withinDriftWindow(azure, at, at + 30 * MINUTE)).toBe(true);
    expect(withinDriftWindow(azure, at, at + 31 * MINUTE)).toBe(false);
    // A state stamped before the request (beyond clock skew) is not caused by it.
    expect(withinDriftWindow(azure, at, at - MINUTE)).toBe(false);
  });
});
