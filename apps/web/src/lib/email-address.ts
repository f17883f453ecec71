import * as z from "zod/mini";

export const MAX_EMAIL_LENGTH = 254;

/** The server's rule: the spec's basic e-mail pattern, with bounded parts. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

/** An e-mail field: required, trimmed, refused in the spec's words ('"{val}" is not a valid email'). */
export const emailAddressSchema = z.string().check(
  z.trim(),
  z.minLength(1, "E-mail is required"),
  z.check((ctx) => {
    if (ctx.value.length > 0 && (ctx.value.length > MAX_EMAIL_LENGTH || !EMAIL.test(ctx.value))) {
      ctx.issues.push({ code: "custom", message: `"${ctx.value}" is not a valid email`, input: ctx.value });
    }
  }),
);
