import { useNavigate } from "@tanstack/react-router";
import { useMemo } from "react";
import { PageHeader } from "@/components/page-header";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Permission, usePermissions } from "@/lib/permissions";
import { eventFilterOf } from "../event-filter";
import { type EventsSearch, type EventView, eventViews, selectedEventTypes } from "../events-search";
import { EventDrawer } from "./event-drawer";
import { EventFilters } from "./event-filters";
import { EventSummaryCards, FetchNowButton } from "./event-summary";
import { EventsTable } from "./events-table";
import { ExportButton } from "./export-button";
import { HierarchyView } from "./hierarchy-view";

const viewLabels: Record<EventView, string> = {
  resources: "By resource",
  events: "Every event",
  hierarchy: "By scope",
};

export function EventsPage({ search }: { search: EventsSearch }) {
  const navigate = useNavigate({ from: "/events/" });
  const canFetch = usePermissions().has(Permission.POLICIES_WRITE_ALERT);
  const filter = useMemo(() => eventFilterOf(search), [search]);
  const view = search.view ?? "resources";
  const perResource = view !== "events";
  const hasFilters =
    selectedEventTypes(search.type).length > 0 ||
    [search.resourceType, search.policyName, search.scope, search.user].some((l) => (l?.length ?? 0) > 0) ||
    !!(search.resourceName || search.policyId || search.from || search.to || search.provider);
  const setView = (next: string) =>
    void navigate({
      search: (prev) => ({ ...prev, view: next === "resources" ? undefined : (next as EventView) }),
    });

  return (
    <div className="min-w-0 space-y-4">
      <PageHeader
        title="Events"
        description="Every action a guardrail prevented or flagged, every waiver used and every drift from a deployed policy, across all connected clouds."
        actions={
          <div className="flex flex-wrap gap-2">
            <ExportButton filter={filter} />
            {canFetch && <FetchNowButton />}
          </div>
        }
      />
      <EventFilters search={search} />
      <Tabs value={view} onValueChange={setView}>
        <TabsList aria-label="View">
          {eventViews.map((v) => (
            <TabsTrigger key={v} value={v}>
              {viewLabels[v]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      {view === "hierarchy" ? (
        <HierarchyView
          filter={filter}
          onFilterScope={(scope) =>
            void navigate({ search: (prev) => ({ ...prev, scope: [scope], view: undefined }) })
          }
        />
      ) : (
        <>
          <EventSummaryCards filter={filter} perResource={perResource} />
          <EventsTable
            filter={filter}
            perResource={perResource}
            onOpen={(eventId) => void navigate({ search: (prev) => ({ ...prev, eventId }) })}
            emptyTitle={hasFilters ? "No events match these filters" : "No events yet"}
            emptyDescription={
              hasFilters
                ? "Events that match the selected types and filters will appear here. Clear the filters to see all events."
                : "When a deployed policy prevents an action, raises an alert, is waived or detects drift, the event appears here within minutes."
            }
          />
        </>
      )}
      <EventDrawer
        eventId={search.eventId}
        onClose={() => void navigate({ search: (prev) => ({ ...prev, eventId: undefined }) })}
      />
    </div>
  );
}
