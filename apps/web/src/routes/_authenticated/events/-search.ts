import * as z from "zod/mini";
import { eventTypes } from "@/features/events/events-search";
import { listOf, optionalString } from "@/lib/search-params";

const eventTypeSchema = z.enum(eventTypes);

export const eventsSearchSchema = z.object({
  type: z.catch(z.optional(z.union([eventTypeSchema, z.array(eventTypeSchema)])), undefined),
  resourceName: optionalString,
  resourceType: listOf(z.string()),
  policyName: listOf(z.string()),
  scope: listOf(z.string()),
  user: listOf(z.string()),
  policyId: optionalString,
});
