/** The events page's address: which event types and which resources, policies, scopes and users. */
export const eventTypes = [
  "prevented",
  "alert",
  "waived",
  "historical-drift",
  "dismissed",
  "resolved",
] as const;
export type EventTypeFilter = (typeof eventTypes)[number];

export interface EventsSearch {
  type?: EventTypeFilter | EventTypeFilter[];
  resourceName?: string;
  resourceType?: string[];
  policyName?: string[];
  scope?: string[];
  user?: string[];
  policyId?: string;
}

/** The selected event types as a list, whichever form the link used. */
export function selectedEventTypes(type: EventsSearch["type"]): EventTypeFilter[] {
  if (type === undefined) return [];
  return Array.isArray(type) ? type : [type];
}
