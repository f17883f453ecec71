import * as z from "zod/mini";

/** The server's bounds for an account: the name's length and Better Auth's password length. */
export const MAX_NAME_LENGTH = 100;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

/** A person's display name: trimmed, 1 to 100 characters. */
export const nameField = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, "Name is required"),
    z.maxLength(MAX_NAME_LENGTH, `Name must not exceed ${MAX_NAME_LENGTH} characters`),
  );

/** A new password within the server's length bounds (the policy's classes are checked by the server). */
export const newPasswordField = z
  .string()
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`),
    z.maxLength(MAX_PASSWORD_LENGTH, `Password must not exceed ${MAX_PASSWORD_LENGTH} characters`),
  );
