import { describe, expect, it } from "vitest";
import { chatTokenAction } from "./chat-token";

const encode = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("chatTokenAction", () => {
  it("reads the action of a card link", () => {
    expect(chatTokenAction(`${encode({ action: "approve", waiverId: "w" })}.sig`)).toBe("approve");
    expect(chatTokenAction(`${encode({ action: "reject" })}.sig`)).toBe("reject");
  });

  it("reads nothing from anything else", () => {
    expect(chatTokenAction("")).toBeUndefined();
    expect(chatTokenAction("not-base64!.x")).toBeUndefined();
    expect(chatTokenAction(`${encode({ action: "delete" })}.sig`)).toBeUndefined();
  });
});
