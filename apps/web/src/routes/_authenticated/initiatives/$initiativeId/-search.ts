import { z } from "zod";
import { stringish } from "@/lib/search-params";

export const initiativeTabs = ["policies", "covered", "description"] as const;

const nonEmpty = stringish.pipe(z.string().min(1));

export const initiativeDetailSearchSchema = z.object({
  clause: nonEmpty.optional().catch(undefined),
  policy: nonEmpty.optional().catch(undefined),
  tab: z.enum(initiativeTabs).default("policies").catch("policies"),
});
