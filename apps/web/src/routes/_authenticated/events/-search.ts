import * as z from "zod/mini";
import { listOf, optionalString } from "@/lib/search-params";

export const eventTypes = [
  "prevented",
  "alert",
  "waived",
  "historical-drift",
  "dismissed",
  "resolved",
] as const;
export const eventTypeSchema = z.enum(eventTypes);
export type EventTypeFilter = z.infer<typeof eventTypeSchema>;

export const eventsSearchSchema = z.object({
  type: z.catch(z.optional(z.union([eventTypeSchema, z.array(eventTypeSchema)])), undefined),
  resourceName: optionalString,
  resourceType: listOf(z.string()),
  policyName: listOf(z.string()),
  scope: listOf(z.string()),
  user: listOf(z.string()),
  policyId: optionalString,
});

export type EventsSearch = z.infer<typeof eventsSearchSchema>;

/** The selected event types as a list, whichever form the link used. */
export function selectedEventTypes(type: EventsSearch["type"]): EventTypeFilter[] {
  if (type === undefined) return [];
  return Array.isArray(type) ? type : [type];
}
