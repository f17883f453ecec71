import { z } from "zod";

export const policyTabs = ["overview", "events", "drifts", "waivers"] as const;

export const policyDetailSearchSchema = z.object({
  tab: z.enum(policyTabs).optional().catch(undefined),
  eventType: z.number().int().nonnegative().optional().catch(undefined),
});
