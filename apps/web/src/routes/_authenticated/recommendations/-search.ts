import * as z from "zod/mini";
import { optionalString } from "@/lib/search-params";

export const recommendationsSearchSchema = z.object({
  recommendationId: optionalString,
});
