import * as z from "zod/mini";
import { redirectPathSchema } from "@/lib/redirect-path";

export const signInSearchSchema = z.object({
  redirect: z.optional(
    z.object({
      path: z.optional(redirectPathSchema),
      recommendationId: z.optional(z.string()),
      genericUrl: z.optional(z.string()),
    }),
  ),
});
