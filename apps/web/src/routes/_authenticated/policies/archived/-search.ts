import { z } from "zod";
import { stringish } from "@/lib/search-params";

export const archivedPolicySearchSchema = z.object({
  policyId: stringish,
  eventType: z.enum(["drift", "prevention"]),
});
