import { describe, expect, it } from "vitest";
import {
  durationSeconds,
  hoursLabel,
  validWaiverRequest,
  waiverRequestErrors,
} from "./waiver-request-schema";

const valid = {
  policyKey: "ABCDEFG",
  duration: 24,
  comment: "Migrating the bucket for INC-42, approved by Dana",
  scope: "",
};

describe("waiver request form", () => {
  it("accepts a 7-character key, 1 to 72 hours and a comment", () => {
    expect(validWaiverRequest({ ...valid, policyKey: " ABCDEFG ", comment: " Why " })).toEqual({
      ...valid,
      policyKey: "ABCDEFG",
      comment: "Why",
    });
  });

  it.each([
    [{ policyKey: "" }, "policyKey", "Policy key is required"],
    [{ policyKey: "   " }, "policyKey", "Policy key is required"],
    [{ policyKey: "ABC" }, "policyKey", "Key must be 7 characters long"],
    [{ policyKey: "ABCDEFGH" }, "policyKey", "Key must be 7 characters long"],
    [{ comment: "" }, "comment", "Comment is required"],
    [{ comment: "x".repeat(221) }, "comment", "Comment must not exceed 220 characters"],
    [{ duration: 0 }, "duration", "The duration must be 1 hour to 72 hours"],
    [{ duration: 73 }, "duration", "The duration must be 1 hour to 72 hours"],
    [{ duration: 2.5 }, "duration", "The duration must be 1 hour to 72 hours"],
    [{ scope: "x".repeat(2049) }, "scope", "The chosen scope's id is too long"],
  ])("%j is rejected on %s", (change, field, message) => {
    const values = { ...valid, ...change };
    expect(validWaiverRequest(values)).toBeNull();
    expect(waiverRequestErrors(values)).toEqual({ [field]: message });
  });

  it("allows exactly 220 characters", () => {
    expect(validWaiverRequest({ ...valid, comment: "x".repeat(220) })).not.toBeNull();
  });

  it.each([
    [1, 3600n, "1 hour"],
    [24, 86_400n, "24 hours"],
    [72, 259_200n, "72 hours"],
  ])("%i hours is %i seconds, labelled %s", (hours, seconds, label) => {
    expect(durationSeconds(hours)).toBe(seconds);
    expect(hoursLabel(hours)).toBe(label);
  });
});

describe("waiverRequestErrors", () => {
  it("is empty for a valid form", () => {
    expect(waiverRequestErrors(valid)).toEqual({});
  });

  it("gives the first message of every invalid field", () => {
    expect(waiverRequestErrors({ policyKey: "", duration: 24, comment: "", scope: "" })).toEqual({
      policyKey: "Policy key is required",
      comment: "Comment is required",
    });
    expect(waiverRequestErrors({ ...valid, policyKey: "ABC" })).toEqual({
      policyKey: "Key must be 7 characters long",
    });
  });
});
