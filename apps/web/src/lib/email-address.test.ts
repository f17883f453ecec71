import { describe, expect, it } from "vitest";
import { emailAddressSchema } from "./email-address";

describe("emailAddressSchema", () => {
  it("takes an address, trimmed", () => {
    expect(emailAddressSchema.parse("  ada@example.com ")).toBe("ada@example.com");
  });

  it("refuses others in the spec's words", () => {
    expect(emailAddressSchema.safeParse("ada@example").error?.issues[0]?.message).toBe(
      '"ada@example" is not a valid email',
    );
    expect(emailAddressSchema.safeParse(`${"a".repeat(250)}@example.com`).success).toBe(false);
    expect(emailAddressSchema.safeParse(" ").error?.issues[0]?.message).toBe("E-mail is required");
  });
});
