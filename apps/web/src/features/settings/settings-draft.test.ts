import { WaiverApprovalMode } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { describe, expect, it } from "vitest";
import { parseSettingsDraft, settingsDraftKey } from "./settings-draft";

const values = {
  name: "Payments",
  approvalMode: WaiverApprovalMode.MANUAL,
  maxHours: "12",
  linkBaseUrl: "https://palisade.example.com",
  separateApprover: false,
  domains: "example.com\nexample.org",
};

describe("settings drafts", () => {
  it("are kept per tenant", () => {
    expect(settingsDraftKey("t-1")).not.toBe(settingsDraftKey("t-2"));
  });

  it("read back the form as the page saved it, typing mistakes included", () => {
    expect(parseSettingsDraft(JSON.parse(JSON.stringify(values)))).toEqual(values);
    expect(parseSettingsDraft({ ...values, maxHours: "twelve" })?.maxHours).toBe("twelve");
  });

  it.each([
    ["not an object", null],
    ["an unknown approval mode", { ...values, approvalMode: 9 }],
    ["a flag that is text", { ...values, separateApprover: "no" }],
    ["a name that is not text", { ...values, name: 3 }],
    ["an overlong field", { ...values, domains: "x".repeat(20_001) }],
  ])("refuse %s", (_, value) => {
    expect(parseSettingsDraft(value)).toBeNull();
  });
});
