import { z } from "zod";
import { redirectPathSchema } from "@/lib/redirect-path";

export const signInSearchSchema = z.object({
  redirect: z
    .object({
      path: redirectPathSchema.optional(),
      recommendationId: z.string().optional(),
      genericUrl: z.string().optional(),
    })
    .optional(),
});

export type SignInSearch = z.infer<typeof signInSearchSchema>;
