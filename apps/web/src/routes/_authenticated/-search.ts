import { z } from "zod";
import { optionalString } from "@/lib/search-params";

export const authenticatedSearchSchema = z.object({
  path: z.string().optional().catch(""),
  recommendationId: optionalString,
  policyId: optionalString,
  eventId: optionalString,
});
