import * as z from "zod/mini";
import { stringish } from "@/lib/search-params";

export const archivedPolicySearchSchema = z.object({
  policyId: stringish,
  eventType: z.enum(["drift", "prevention"]),
});
