import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { type EventsSearch, type EventTypeFilter, searchText, selectedEventTypes } from "./events-search";

export const EVENTS_PAGE_SIZE = 30;

export const eventTypeOf: Record<EventTypeFilter, EventType> = {
  prevented: EventType.PREVENTION,
  alert: EventType.ALERT,
  waived: EventType.WAIVED,
  "historical-drift": EventType.HISTORICAL_DRIFT,
  dismissed: EventType.DISMISSED,
  resolved: EventType.RESOLVED,
};

export const eventTypeText: Record<
  EventType,
  { label: string; variant: "destructive" | "warning" | "secondary" | "success" | "outline" }
> = {
  [EventType.UNSPECIFIED]: { label: "Event", variant: "outline" },
  [EventType.PREVENTION]: { label: "Prevented", variant: "destructive" },
  [EventType.DRIFT]: { label: "Drift", variant: "warning" },
  [EventType.HISTORICAL_DRIFT]: { label: "Historical drift", variant: "secondary" },
  [EventType.WAIVED]: { label: "Waived", variant: "success" },
  [EventType.MISSING]: { label: "Missing", variant: "secondary" },
  [EventType.RESOLVED]: { label: "Resolved", variant: "success" },
  [EventType.DISMISSED]: { label: "Dismissed", variant: "secondary" },
  [EventType.ALERT]: { label: "Alert", variant: "warning" },
};

/** Midnight starting a `YYYY-MM-DD` day in the reader's time zone. */
export function startOfDay(day: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/** The days of the address as a half-open range: from the first day's midnight to the midnight after the last. */
export function timeRangeOf(from: string | undefined, to: string | undefined) {
  if (!from && !to) return undefined;
  const end = to ? startOfDay(to) : undefined;
  end?.setDate(end.getDate() + 1);
  return {
    start: from ? timestampFromDate(startOfDay(from)) : undefined,
    end: end ? timestampFromDate(end) : undefined,
  };
}

/** The service's filter for the filters in the /events address. */
export function eventFilterOf(search: EventsSearch) {
  return {
    type: selectedEventTypes(search.type).map((t) => eventTypeOf[t]),
    resourceName: searchText(search.resourceName),
    resourceType: search.resourceType ?? [],
    policyName: search.policyName ?? [],
    scope: search.scope ?? [],
    user: search.user ?? [],
    policyId: search.policyId,
    timeRange: timeRangeOf(search.from, search.to),
    cloudProviders: search.provider
      ? [search.provider === "aws" ? CloudProvider.AWS : CloudProvider.AZURE]
      : [],
  };
}

export interface PageCursor {
  start?: string;
  end?: string;
}

/** Keyset pagination: no cursor is the first page, `end` of a page leads on, `start` leads back. */
export function eventsPagination(cursor: PageCursor | undefined) {
  return {
    position: { case: "cursor" as const, value: cursor ?? {} },
    limit: EVENTS_PAGE_SIZE,
  };
}

/** The cursors of the pages before and after the one shown, each absent at its end. */
export function neighbours(
  pagination: { position: { case: string | undefined; value?: unknown } } | undefined,
): {
  previous?: PageCursor;
  next?: PageCursor;
} {
  if (pagination?.position.case !== "cursor") return {};
  const { start, end } = pagination.position.value as PageCursor;
  return {
    previous: start ? { start } : undefined,
    next: end ? { end } : undefined,
  };
}

/** The name shown for the user of an event; the service names service accounts, this covers a blank answer. */
export function eventUserName(user: { name: string; identifier: string } | undefined): string {
  return user?.name.trim() || user?.identifier.trim() || "Unknown User";
}
