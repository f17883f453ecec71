import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { describe, expect, it } from "vitest";
import { roleLabel } from "@/lib/role-label";
import { formatDateTime } from "./team-labels";

describe("formatDateTime", () => {
  it("names the time zone", () => {
    const text = formatDateTime(new Date("2026-03-01T12:30:00Z"), "UTC");
    expect(text).toContain("2026");
    expect(text).toContain("UTC");
  });
});

describe("roleLabel", () => {
  it("reads the role's name", () => {
    expect(roleLabel(Role.ADMINISTRATOR)).toBe("Administrator");
    expect(roleLabel(Role.UNSPECIFIED)).toBe("None");
  });
});
