import * as z from "zod/mini";
import { stringish } from "@/lib/search-params";

export const initiativeTabs = ["policies", "covered", "description"] as const;

const nonEmpty = z.pipe(stringish, z.string().check(z.minLength(1)));

export const initiativeDetailSearchSchema = z.object({
  clause: z.catch(z.optional(nonEmpty), undefined),
  policy: z.catch(z.optional(nonEmpty), undefined),
  tab: z.catch(z._default(z.enum(initiativeTabs), "policies"), "policies"),
});
