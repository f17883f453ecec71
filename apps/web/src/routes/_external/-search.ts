import * as z from "zod/mini";
import { stringish } from "@/lib/search-params";

export const externalSearchSchema = z.object({
  k: z.catch(z.optional(stringish), undefined),
  path: z.catch(z.optional(z.string()), ""),
});
