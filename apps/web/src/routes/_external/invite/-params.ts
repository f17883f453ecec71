import * as z from "zod/mini";

/** A token longer than any issued is not worth a lookup; it reads as an unknown link. */
export const invitationParamsSchema = z.object({
  token: z.catch(z.string().check(z.maxLength(256)), ""),
});
