import { describe, expect, it } from "vitest";
import { changePasswordSchema, nameSchema } from "./account-schemas";

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("account forms", () => {
  it("bounds the name", () => {
    expect(nameSchema.safeParse({ name: "  Ada  " }).data?.name).toBe("Ada");
    expect(messages(nameSchema.safeParse({ name: " " }))).toEqual(["Name is required"]);
    expect(messages(nameSchema.safeParse({ name: "x".repeat(101) }))).toEqual([
      "Name must not exceed 100 characters",
    ]);
  });

  it("asks for the current password and a new one typed twice", () => {
    expect(
      changePasswordSchema.safeParse({
        oldPassword: "old-password-1",
        newPassword: "new-password-1",
        confirmPassword: "new-password-1",
      }).success,
    ).toBe(true);
    expect(
      messages(
        changePasswordSchema.safeParse({ oldPassword: "", newPassword: "short", confirmPassword: "other" }),
      ),
    ).toEqual([
      "Current password is required",
      "Password must be at least 10 characters long",
      "The two new passwords differ",
    ]);
  });
});
