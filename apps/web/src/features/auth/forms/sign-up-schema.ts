import * as z from "zod/mini";
import { nameField, newPasswordField } from "@/lib/account-fields";
import { emailAddressSchema } from "@/lib/email-address";

export const signUpSchema = z
  .object({
    name: nameField,
    email: emailAddressSchema,
    password: newPasswordField,
    confirm: z.string(),
  })
  .check(
    z.refine((values) => values.password === values.confirm, {
      message: "The passwords do not match",
      path: ["confirm"],
    }),
  );

export type SignUpValues = z.infer<typeof signUpSchema>;

/** What the server's refusal of a sign-up means for the person filling the form. */
export function signUpFailureText(
  error: { status?: number; code?: string; message?: string },
  retryAfterSeconds: number | undefined,
): string {
  if (error.code === "SIGN_UP_DISABLED")
    return "Sign-up is turned off on this server. Ask an administrator of your organisation to invite you.";
  if (error.status === 429)
    return retryAfterSeconds
      ? `Too many requests. Try again in ${retryAfterSeconds} s.`
      : "Too many requests. Wait a minute and try again.";
  if (error.status === 0 || error.status === undefined)
    return "The server could not be reached. Check your connection and try again.";
  return error.message || "The account was not created. Try again.";
}
