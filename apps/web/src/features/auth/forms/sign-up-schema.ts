import * as z from "zod/mini";
import { emailAddressSchema } from "@/lib/email-address";

/** The server's bounds for a new account (Better Auth's password length, the name's length). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 100;

export const signUpSchema = z
  .object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Name is required"),
        z.maxLength(MAX_NAME_LENGTH, `Name must not exceed ${MAX_NAME_LENGTH} characters`),
      ),
    email: emailAddressSchema,
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
