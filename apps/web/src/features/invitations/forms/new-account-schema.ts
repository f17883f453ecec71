import * as z from "zod/mini";
import { nameField, newPasswordField } from "@/lib/account-fields";

export const newAccountSchema = z
  .object({
    name: nameField,
    password: newPasswordField,
    confirm: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirm, {
      message: "The passwords do not match",
      path: ["confirm"],
    }),
  );

export type NewAccountValues = z.infer<typeof newAccountSchema>;
