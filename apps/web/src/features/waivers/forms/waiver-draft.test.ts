import { describe, expect, it } from "vitest";
import { parseWaiverDraft } from "./waiver-draft";

describe("parseWaiverDraft", () => {
  it.each([
    [null, null],
    ["", null],
    ["[]", null],
    ['{"policyKey":"ABCDEFG","comment":"x"}', null],
    ['{"policyKey":7,"duration":24,"comment":"x"}', null],
    [
      '{"policyKey":"ABCDEFG","duration":48,"comment":"INC-42"}',
      { policyKey: "ABCDEFG", duration: 48, comment: "INC-42", scope: "" },
    ],
    [
      '{"policyKey":"ABCDEFG","duration":4,"comment":"x","scope":"111122223333"}',
      { policyKey: "ABCDEFG", duration: 4, comment: "x", scope: "111122223333" },
    ],
    [
      '{"policyKey":"AB","duration":500,"comment":""}',
      { policyKey: "AB", duration: 72, comment: "", scope: "" },
    ],
    ['{"policyKey":"","duration":0,"comment":""}', { policyKey: "", duration: 1, comment: "", scope: "" }],
    ['{"policyKey":"","duration":2.5,"comment":""}', { policyKey: "", duration: 24, comment: "", scope: "" }],
  ])("%j gives %j", (stored, expected) => {
    expect(parseWaiverDraft(stored ? JSON.parse(stored) : stored)).toEqual(expected);
  });
});
