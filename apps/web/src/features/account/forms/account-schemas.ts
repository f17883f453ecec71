import * as z from "zod/mini";

export const MAX_NAME_LENGTH = 100;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

export const nameSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Name is required"),
      z.maxLength(MAX_NAME_LENGTH, `Name must not exceed ${MAX_NAME_LENGTH} characters`),
    ),
});

export const newPasswordField = z
  .string()
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`),
    z.maxLength(MAX_PASSWORD_LENGTH, `Password must not exceed ${MAX_PASSWORD_LENGTH} characters`),
  );

export const changePasswordSchema = z
  .object({
    oldPassword: z.string().check(z.minLength(1, "Current password is required")),
    newPassword: newPasswordField,
    confirmPassword: z.string(),
  })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, {
      message: "The two new passwords differ",
      path: ["confirmPassword"],
    }),
    z.refine((values) => !values.oldPassword || values.newPassword !== values.oldPassword, {
      message: "The new password must differ from the current one",
      path: ["newPassword"],
    }),
  );

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
