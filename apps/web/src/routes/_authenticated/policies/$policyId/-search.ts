import * as z from "zod/mini";
import { policyTabs } from "@/features/policies/policies-search";

export const policyDetailSearchSchema = z.object({
  tab: z.catch(z.optional(z.enum(policyTabs)), undefined),
  eventType: z.catch(z.optional(z.int().check(z.nonnegative())), undefined),
});
