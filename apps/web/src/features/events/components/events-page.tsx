import { useNavigate } from "@tanstack/react-router";
import { SearchIcon, XIcon } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Permission, usePermissions } from "@/lib/permissions";
import { cn } from "@/lib/utils";
import { eventFilterOf } from "../event-filter";
import { eventTypeLabels, toggleEventType } from "../event-type-labels";
import { type EventsSearch, eventTypes, selectedEventTypes } from "../events-search";
import { EventSummaryCards, FetchNowButton } from "./event-summary";
import { EventsTable } from "./events-table";

const searchDebounceMs = 300;

const listFilters = [
  ["resourceType", "Resource type"],
  ["policyName", "Policy"],
  ["scope", "Scope"],
  ["user", "User"],
] as const;

export function EventsPage({ search }: { search: EventsSearch }) {
  const navigate = useNavigate({ from: "/events/" });
  const canFetch = usePermissions().has(Permission.POLICIES_WRITE_ALERT);
  const filter = useMemo(() => eventFilterOf(search), [search]);
  const selected = selectedEventTypes(search.type);
  const [resourceName, setResourceName] = useState(search.resourceName ?? "");
  const inputId = useId();

  useEffect(() => {
    const value = resourceName.trim() || undefined;
    if (value === search.resourceName) return;
    const timer = setTimeout(
      () => void navigate({ search: (prev) => ({ ...prev, resourceName: value }), replace: true }),
      searchDebounceMs,
    );
    return () => clearTimeout(timer);
  }, [resourceName, search.resourceName, navigate]);

  const activeFilters = listFilters.flatMap(([key, label]) =>
    (search[key] ?? []).map((value) => ({ key, label, value })),
  );
  const hasFilters =
    selected.length > 0 || activeFilters.length > 0 || !!search.resourceName || !!search.policyId;

  return (
    <>
      <PageHeader
        title="Events"
        description="Every action a guardrail prevented or flagged, every waiver used and every drift from a deployed policy, across all connected clouds."
        actions={canFetch && <FetchNowButton />}
      />
      <Card className="space-y-3 p-4">
        <div className="flex flex-col gap-3 md:flex-row md:items-center">
          <div className="relative md:w-72">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
            <label htmlFor={inputId} className="sr-only">
              Resource name
            </label>
            <Input
              id={inputId}
              className="pl-9"
              placeholder="Search by resource name"
              value={resourceName}
              onChange={(event) => setResourceName(event.target.value)}
            />
          </div>
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Event type</legend>
            {eventTypes.map((type) => {
              const on = selected.includes(type);
              return (
                <button
                  key={type}
                  type="button"
                  aria-pressed={on}
                  onClick={() =>
                    void navigate({ search: (prev) => ({ ...prev, type: toggleEventType(selected, type) }) })
                  }
                  className={cn(
                    "rounded-full border px-3 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring",
                    on ? "border-primary bg-primary text-primary-foreground" : "bg-card hover:bg-accent",
                  )}
                >
                  {eventTypeLabels[type]}
                </button>
              );
            })}
          </fieldset>
        </div>
        {hasFilters && (
          <div className="flex flex-wrap items-center gap-2">
            <ul className="flex flex-wrap items-center gap-2" aria-label="Active filters">
              {search.policyId && (
                <li>
                  <Badge variant="outline">Policy id: {search.policyId}</Badge>
                </li>
              )}
              {activeFilters.map(({ key, label, value }) => (
                <li key={`${key}-${value}`}>
                  <Badge variant="secondary">
                    {label}: {value}
                  </Badge>
                </li>
              ))}
            </ul>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setResourceName("");
                void navigate({ search: {} });
              }}
            >
              <XIcon />
              Clear filters
            </Button>
          </div>
        )}
      </Card>
      <EventSummaryCards filter={filter} />
      <EventsTable
        filter={filter}
        emptyTitle={hasFilters ? "No events match these filters" : "No events yet"}
        emptyDescription={
          hasFilters
            ? "Events that match the selected types and filters will appear here. Clear the filters to see all events."
            : "When a deployed policy prevents an action, raises an alert, is waived or detects drift, the event appears here within minutes."
        }
      />
    </>
  );
}
