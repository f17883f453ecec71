import * as z from "zod/mini";
import { optionalString } from "@/lib/search-params";

export const policyViews = ["catalogue", "deployed"] as const;
export const catalogueCategories = [
  "network-access",
  "data-protection",
  "encryption",
  "identity",
  "other",
] as const;
export const catalogueStates = ["not-installed", "alert", "prevent"] as const;

export const policiesSearchSchema = z.object({
  view: z.catch(z.optional(z.enum(policyViews)), undefined),
  search: optionalString,
  provider: z.catch(z.optional(z.enum(["AWS", "Azure"])), undefined),
  category: z.catch(z.optional(z.enum(catalogueCategories)), undefined),
  state: z.catch(z.optional(z.enum(catalogueStates)), undefined),
  framework: optionalString,
  resourceType: optionalString,
  page: z.catch(z.optional(z.int().check(z.positive())), undefined),
});

export type PoliciesSearch = z.infer<typeof policiesSearchSchema>;
