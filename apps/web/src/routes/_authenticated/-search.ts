import * as z from "zod/mini";
import { optionalString } from "@/lib/search-params";

export const authenticatedSearchSchema = z.object({
  path: z.catch(z.optional(z.string()), ""),
  recommendationId: optionalString,
  policyId: optionalString,
  eventId: optionalString,
});
