import * as z from "zod/mini";

/** The server's bounds for a new account (Better Auth's password length). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 100;

export const newAccountSchema = z
  .object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Name is required"),
        z.maxLength(MAX_NAME_LENGTH, `Name must not exceed ${MAX_NAME_LENGTH} characters`),
      ),
    password: z
      .string()
      .check(
        z.minLength(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`),
        z.maxLength(MAX_PASSWORD_LENGTH, `Password must not exceed ${MAX_PASSWORD_LENGTH} characters`),
      ),
    confirm: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirm, {
      message: "The passwords do not match",
      path: ["confirm"],
    }),
  );

export type NewAccountValues = z.infer<typeof newAccountSchema>;
