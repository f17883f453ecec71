import { EventType } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { EventsTable } from "@/features/events/components/events-table";
import { ArchivedEventsPage } from "@/features/policies/components/archived-events-page";
import { loadPageData } from "@/lib/page-data";
import { archivedPolicySearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/policies/archived/")({
  // Both parameters are required; a link without them lands on the policies with a notice
  // instead of the error screen.
  validateSearch: (raw: Record<string, unknown>) => {
    const parsed = archivedPolicySearchSchema.safeParse(raw);
    return parsed.success ? parsed.data : { policyId: "", eventType: undefined };
  },
  beforeLoad: ({ search }) => {
    if (!search.policyId || !search.eventType)
      throw redirect({
        to: "/policies",
        search: { view: "deployed" },
        state: {
          notice:
            "Archived events are opened from a policy: its Events or Drifts tab links to them. Choose a policy below.",
        },
      });
  },
  loader: async ({ context, location }) => {
    const { bundleQuery } = await import("@/features/policies/api/policy-queries");
    const policyId = (location.search as { policyId?: string }).policyId ?? "";
    if (policyId) await loadPageData(context.queryClient, bundleQuery(policyId)).catch(() => undefined);
  },
  component: ArchivedEventsRoute,
});

function ArchivedEventsRoute() {
  const { policyId, eventType } = Route.useSearch();
  const kind = eventType ?? "prevention";
  // Inside the component, so the event enums load with the page, not with the app's first load.
  const typesOf = {
    prevention: [EventType.PREVENTION, EventType.ALERT, EventType.WAIVED, EventType.MISSING],
    drift: [EventType.DRIFT, EventType.HISTORICAL_DRIFT],
  };
  return (
    <ArchivedEventsPage
      policyId={policyId}
      eventType={kind}
      events={
        <EventsTable
          filter={{ policyId, type: typesOf[kind] }}
          showPolicy={false}
          emptyTitle={`No ${kind} events`}
          emptyDescription={`This policy recorded no ${kind} events before it was deleted or archived.`}
        />
      }
    />
  );
}
