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

export const eventProviders = ["aws", "azure"] as const;
export type EventProviderFilter = (typeof eventProviders)[number];

/** "resources": one row per resource and policy (the default); "events": every event; "hierarchy": counts per scope. */
export const eventViews = ["resources", "events", "hierarchy"] as const;
export type EventView = (typeof eventViews)[number];

export interface EventsSearch {
  type?: EventTypeFilter | EventTypeFilter[];
  resourceName?: string;
  resourceType?: string[];
  policyName?: string[];
  scope?: string[];
  user?: string[];
  policyId?: string;
  /** First and last day shown, `YYYY-MM-DD`, in the reader's time zone. */
  from?: string;
  to?: string;
  provider?: EventProviderFilter;
  view?: EventView;
  /** The event open in the side sheet. */
  eventId?: string;
}

/** The selected event types as a list, whichever form the link used. */
export function selectedEventTypes(type: EventsSearch["type"]): EventTypeFilter[] {
  if (type === undefined) return [];
  return Array.isArray(type) ? type : [type];
}

/** A text search as the list receives it: trimmed, and nothing for a single character (too broad to search). */
export function searchText(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text && text.length > 1 ? text : undefined;
}
