import type { EventTypeFilter } from "./events-search";

export const eventTypeLabels: Record<EventTypeFilter, string> = {
  prevented: "Prevented",
  alert: "Alert",
  waived: "Waived",
  "historical-drift": "Historical drift",
  dismissed: "Dismissed",
  resolved: "Resolved",
};

/** Adds or removes one type; a single remaining type stays a plain value, as links write it. */
export function toggleEventType(
  selected: readonly EventTypeFilter[],
  type: EventTypeFilter,
): EventTypeFilter | EventTypeFilter[] | undefined {
  const next = selected.includes(type) ? selected.filter((t) => t !== type) : [...selected, type];
  if (next.length === 0) return undefined;
  return next.length === 1 ? next[0] : next;
}
