import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { describe, expect, it } from "vitest";
import { roleLabel } from "./role-label";

describe("roleLabel", () => {
  it("reads the role's name", () => {
    expect(roleLabel(Role.ADMINISTRATOR)).toBe("Administrator");
    expect(roleLabel(Role.UNSPECIFIED)).toBe("None");
  });
});
