import { z } from "zod";
import { optionalString } from "@/lib/search-params";

export const recommendationsSearchSchema = z.object({
  recommendationId: optionalString,
});
