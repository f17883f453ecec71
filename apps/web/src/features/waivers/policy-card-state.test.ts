import { describe, expect, it } from "vitest";
import { type PolicyCardState, policyCardState } from "./policy-card-state";

type Input = Parameters<typeof policyCardState>[0];
const base: Input = { key: "", typing: false, status: "idle", found: false };

describe("policyCardState", () => {
  it.each<[string, Partial<Input>, PolicyCardState]>([
    ["empty key", {}, { kind: "empty" }],
    ["blank key", { key: "   " }, { kind: "empty" }],
    ["three characters", { key: "ABC" }, { kind: "keep-typing", length: 3 }],
    ["six characters while typing", { key: "ABCDEF", typing: true }, { kind: "keep-typing", length: 6 }],
    [
      "eight characters while typing",
      { key: "ABCDEFGH", typing: true },
      { kind: "invalid-format", length: 8 },
    ],
    ["eight characters after typing", { key: "ABCDEFGH" }, { kind: "invalid-format", length: 8 }],
    ["valid key while typing", { key: "ABCDEFG", typing: true }, { kind: "loading" }],
    ["valid key while loading", { key: "ABCDEFG", status: "pending" }, { kind: "loading" }],
    ["valid key found", { key: "ABCDEFG", status: "success", found: true }, { kind: "found" }],
    [
      "valid key without a bundle",
      { key: "ABCDEFG", status: "success", found: false },
      { kind: "not-found" },
    ],
    [
      "key unknown to the server",
      { key: "ABCDEFG", status: "error", errorMessage: "No policy has this key" },
      { kind: "not-found" },
    ],
    [
      "network failure",
      { key: "ABCDEFG", status: "error", errorMessage: "Failed to fetch" },
      { kind: "connection-error" },
    ],
    [
      "request timeout",
      { key: "ABCDEFG", status: "error", errorMessage: "Request timeout" },
      { kind: "connection-error" },
    ],
  ])("%s", (_name, input, expected) => {
    expect(policyCardState({ ...base, ...input })).toEqual(expected);
  });
});
