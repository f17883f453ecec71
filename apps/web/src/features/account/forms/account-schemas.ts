import * as z from "zod/mini";
import { nameField, newPasswordField } from "@/lib/account-fields";

export const nameSchema = z.object({ name: nameField });

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
