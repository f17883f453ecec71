import { describe, expect, it } from "vitest";
import { formatDateTime } from "./date-time";

describe("formatDateTime", () => {
  it("names the time zone", () => {
    const text = formatDateTime(new Date("2026-03-01T12:30:00Z"), "UTC");
    expect(text).toContain("2026");
    expect(text).toContain("UTC");
  });
});
