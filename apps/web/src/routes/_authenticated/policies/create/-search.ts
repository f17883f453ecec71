import * as z from "zod/mini";
import { catalogueProviders } from "@/features/policies/policies-search";
import { listOf, optionalString } from "@/lib/search-params";

export const policyCreateSearchSchema = z.object({
  recommendationId: optionalString,
  recommendationTitle: optionalString,
  initiativeSlug: optionalString,
  initiativeTitle: optionalString,
  provider: z.catch(z.optional(z.enum(catalogueProviders)), undefined),
  defaultSelectedPolicies: listOf(z.string()),
  policyKey: optionalString,
});
