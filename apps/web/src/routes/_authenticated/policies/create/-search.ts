import { z } from "zod";
import { listOf, optionalString } from "@/lib/search-params";

export const policyCreateSearchSchema = z.object({
  recommendationId: optionalString,
  recommendationTitle: optionalString,
  initiativeSlug: optionalString,
  initiativeTitle: optionalString,
  provider: z.enum(["Azure", "AWS"]).optional().catch(undefined),
  defaultSelectedPolicies: listOf(z.string()),
  policyKey: optionalString,
});
