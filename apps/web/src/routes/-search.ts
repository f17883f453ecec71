import * as z from "zod/mini";
import { redirectPathSchema } from "@/lib/redirect-path";

/** A part of the redirect that cannot be used is dropped: the page still works. */
const dropped = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

/**
 * The sign-in page's search. An invalid redirect (a foreign host, a path that is not one)
 * is dropped, so the visitor lands on the default path after signing in, rather than the page
 * failing on it.
 */
export const signInSearchSchema = z.object({
  redirect: dropped(
    z.object({
      path: dropped(redirectPathSchema),
      recommendationId: dropped(z.string()),
      genericUrl: dropped(z.string()),
    }),
  ),
});
