import { describe, expect, it } from "vitest";
import { aboutMinutes, deploymentPropagationText, minutesUntil, waiverPropagationText } from "./propagation";

const now = Date.parse("2026-11-27T10:00:00Z");

describe("propagation wording", () => {
  it("rounds the time left up to whole minutes, never below one", () => {
    expect(minutesUntil(new Date(now + 4 * 60_000 + 1_000), now)).toBe(5);
    expect(minutesUntil(new Date(now + 20_000), now)).toBe(1);
    expect(minutesUntil(new Date(now - 5_000), now)).toBe(1);
    expect(aboutMinutes(new Date(now + 20_000), now)).toBe("about 1 minute");
    expect(aboutMinutes(new Date(now + 10 * 60_000), now)).toBe("about 10 minutes");
  });

  it("explains a propagating deployment and waiver with the time left", () => {
    expect(deploymentPropagationText(new Date(now + 9 * 60_000), now)).toBe(
      "Written to Azure, which applies new assignments within about 9 minutes; until then Azure does not enforce it.",
    );
    expect(waiverPropagationText(undefined, now)).toContain(
      "within a few minutes; until then the action stays blocked",
    );
  });
});
