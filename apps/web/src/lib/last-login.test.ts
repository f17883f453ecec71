import { describe, expect, it } from "vitest";
import { forgetLastLogin, readLastLogin, rememberLastLogin } from "./last-login";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe("last login", () => {
  it("remembers and reads back the login id and display name", () => {
    const storage = memoryStorage();
    rememberLastLogin({ loginId: "ada@example.com", name: "Ada Lovelace" }, storage);
    expect(readLastLogin(storage)).toEqual({ loginId: "ada@example.com", name: "Ada Lovelace" });
    forgetLastLogin(storage);
    expect(readLastLogin(storage)).toBeNull();
  });

  it("remembers the method of the last sign-in", () => {
    const storage = memoryStorage();
    rememberLastLogin({ loginId: "ada@example.com", name: "Ada", method: "email-otp" }, storage);
    expect(readLastLogin(storage)).toEqual({ loginId: "ada@example.com", name: "Ada", method: "email-otp" });
  });

  it.each([["not json"], ['{"loginId": 3, "name": "x"}'], ['"just a string"']])(
    "ignores a corrupt entry %s",
    (raw) => {
      expect(readLastLogin(memoryStorage({ "palisade.lastLogin": raw }))).toBeNull();
    },
  );
});
