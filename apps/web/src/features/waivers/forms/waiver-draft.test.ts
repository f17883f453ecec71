import { describe, expect, it } from "vitest";
import { draftWithKey, parseWaiverDraft } from "./waiver-draft";

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

describe("draftWithKey", () => {
  const draft = { policyKey: "ABCDEFG", duration: 8, comment: "INC-42 deploy", scope: "111122223333" };

  it("a reload keeps the reason, the duration and the scope", () => {
    expect(draftWithKey(draft, "")).toEqual(draft);
    expect(draftWithKey(draft, "abcdefg")).toEqual(draft);
  });

  it("a link with another key keeps the reason and duration, not the other policy's scope", () => {
    expect(draftWithKey(draft, "HIJKLMN")).toEqual({ ...draft, policyKey: "HIJKLMN", scope: "" });
  });

  it("without a draft, the key of the link", () => {
    expect(draftWithKey(null, "HIJKLMN")).toEqual({ policyKey: "HIJKLMN" });
  });
});
