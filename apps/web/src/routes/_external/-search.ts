import { z } from "zod";
import { stringish } from "@/lib/search-params";

export const externalSearchSchema = z.object({
  k: stringish.optional().catch(undefined),
  path: z.string().optional().catch(""),
});
