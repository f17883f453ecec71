import * as z from "zod/mini";

export const policyTabs = ["overview", "events", "drifts", "waivers"] as const;

export const policyDetailSearchSchema = z.object({
  tab: z.catch(z.optional(z.enum(policyTabs)), undefined),
  eventType: z.catch(z.optional(z.int().check(z.nonnegative())), undefined),
});
