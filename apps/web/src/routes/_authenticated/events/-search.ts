import * as z from "zod/mini";
import { eventProviders, eventTypes, eventViews } from "@/features/events/events-search";
import { listOf, optionalString, stringish } from "@/lib/search-params";

const eventTypeSchema = z.enum(eventTypes);
const day = z.catch(z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))), undefined);

export const eventsSearchSchema = z.object({
  type: z.catch(z.optional(z.union([eventTypeSchema, z.array(eventTypeSchema)])), undefined),
  resourceName: optionalString,
  // AWS account ids are digits, which the router reads as numbers: list values are strings whatever they look like.
  resourceType: listOf(stringish),
  policyName: listOf(stringish),
  scope: listOf(stringish),
  user: listOf(stringish),
  policyId: optionalString,
  from: day,
  to: day,
  provider: z.catch(z.optional(z.enum(eventProviders)), undefined),
  view: z.catch(z.optional(z.enum(eventViews)), undefined),
});
