import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { rolePermissions } from "@palisade/api/roles";
import { describe, expect, it } from "vitest";
import { Permission } from "@/lib/permissions";
import { canUseApp } from "./nav-items";

describe("canUseApp", () => {
  it.each([
    ["VISITOR", Role.VISITOR, false],
    ["VIEWER", Role.VIEWER, true],
    ["MODERATOR", Role.MODERATOR, true],
    ["EDITOR", Role.EDITOR, true],
    ["ADMINISTRATOR", Role.ADMINISTRATOR, true],
    ["INTEGRATOR", Role.INTEGRATOR, true],
  ])("%s may use the signed-in area: %s", (_name, role, expected) => {
    expect(canUseApp(rolePermissions[role])).toBe(expected);
  });

  it("refuses an empty permission list", () => {
    expect(canUseApp([])).toBe(false);
    expect(canUseApp([Permission.WAIVERS_REQUEST])).toBe(false);
  });
});
