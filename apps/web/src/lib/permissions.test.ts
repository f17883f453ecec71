import { describe, expect, it } from "vitest";
import { Permission, permissionCheck } from "./permissions";

describe("permissionCheck", () => {
  const editor = permissionCheck([Permission.POLICIES_READ, Permission.POLICIES_WRITE_ALERT]);

  it.each([
    [Permission.POLICIES_READ, true],
    [Permission.POLICIES_WRITE_ALERT, true],
    [Permission.POLICIES_WRITE_PREVENT, false],
    [Permission.USERS_WRITE, false],
  ])("has %s: %s", (permission, expected) => {
    expect(editor.has(permission)).toBe(expected);
  });

  it("needs every permission for hasAll and one for hasAny", () => {
    expect(editor.hasAll(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT)).toBe(false);
    expect(editor.hasAny(Permission.POLICIES_WRITE_ALERT, Permission.POLICIES_WRITE_PREVENT)).toBe(true);
    expect(permissionCheck([]).hasAny(Permission.POLICIES_READ)).toBe(false);
  });
});
