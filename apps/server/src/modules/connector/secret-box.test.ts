import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box";

const KEY = "a-server-secret-key-that-is-long-enough-1234";

describe("secret box", () => {
  const box = createSecretBox(KEY);

  it("opens what it sealed, and the sealed text does not contain the secret", () => {
    const sealed = box.seal("s3cr3t-value", "connector-1");
    expect(sealed).not.toContain("s3cr3t-value");
    expect(box.open(sealed, "connector-1")).toBe("s3cr3t-value");
  });

  it("seals the same secret differently each time", () => {
    expect(box.seal("x", "c")).not.toBe(box.seal("x", "c"));
  });

  it.each([
    ["another connector's id", (s: string) => s, "connector-2", KEY],
    ["another server key", (s: string) => s, "connector-1", `${KEY}-other`],
    [
      "a tampered body",
      (s: string) => `${s.slice(0, -2)}${s.endsWith("A") ? "B" : "A"}A`,
      "connector-1",
      KEY,
    ],
    ["an unknown version", (s: string) => s.replace(/^v1/, "v9"), "connector-1", KEY],
  ])("refuses to open with %s", (_name, alter, connectorId, key) => {
    const sealed = alter(box.seal("s3cr3t-value", "connector-1"));
    expect(() => createSecretBox(key).open(sealed, connectorId)).toThrow();
  });
});
