import * as z from "zod/mini";
import {
  catalogueCategories,
  catalogueProviders,
  catalogueStates,
  policyViews,
} from "@/features/policies/policies-search";
import { optionalString } from "@/lib/search-params";

export const policiesSearchSchema = z.object({
  view: z.catch(z.optional(z.enum(policyViews)), undefined),
  search: optionalString,
  provider: z.catch(z.optional(z.enum(catalogueProviders)), undefined),
  category: z.catch(z.optional(z.enum(catalogueCategories)), undefined),
  state: z.catch(z.optional(z.enum(catalogueStates)), undefined),
  framework: optionalString,
  resourceType: optionalString,
  page: z.catch(z.optional(z.int().check(z.positive())), undefined),
});
