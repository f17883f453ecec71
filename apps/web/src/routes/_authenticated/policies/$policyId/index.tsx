import { createFileRoute } from "@tanstack/react-router";
import { EventsTable } from "@/features/events/components/events-table";
import { PolicyDetailPage } from "@/features/policies/components/policy-detail-page";
import { PolicyWaiversTab } from "@/features/waivers/components/policy-waivers-tab";
import { loadPageData } from "@/lib/page-data";
import { policyDetailSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/policies/$policyId/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context, params }) => {
    const { bundleQuery } = await import("@/features/policies/api/policy-queries");
    await loadPageData(context.queryClient, bundleQuery(params.policyId));
  },
  validateSearch: policyDetailSearchSchema,
  component: PolicyDetailRoute,
});

function PolicyDetailRoute() {
  const { policyId } = Route.useParams();
  const { tab, eventType } = Route.useSearch();
  return (
    <PolicyDetailPage
      policyId={policyId}
      tab={tab}
      eventType={eventType}
      renderEvents={({ bundleId, types, emptyTitle, emptyDescription }) => (
        <EventsTable
          filter={{ policyId: bundleId, type: types }}
          showPolicy={false}
          emptyTitle={emptyTitle}
          emptyDescription={emptyDescription}
        />
      )}
      waiversTab={<PolicyWaiversTab policyId={policyId} />}
    />
  );
}
