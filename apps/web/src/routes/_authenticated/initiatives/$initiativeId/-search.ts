import * as z from "zod/mini";
import { initiativeTabs } from "@/features/initiatives/initiative-tabs";
import { stringish } from "@/lib/search-params";

const nonEmpty = z.pipe(stringish, z.string().check(z.minLength(1)));

export const initiativeDetailSearchSchema = z.object({
  clause: z.catch(z.optional(nonEmpty), undefined),
  policy: z.catch(z.optional(nonEmpty), undefined),
  tab: z.catch(z._default(z.enum(initiativeTabs), "policies"), "policies"),
});
