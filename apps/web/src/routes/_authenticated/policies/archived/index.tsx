import { createFileRoute } from "@tanstack/react-router";
import { ArchivedEventsPage } from "@/features/policies/components/archived-events-page";
import { archivedPolicySearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/policies/archived/")({
  validateSearch: archivedPolicySearchSchema,
  component: ArchivedEventsRoute,
});

function ArchivedEventsRoute() {
  const { policyId, eventType } = Route.useSearch();
  return <ArchivedEventsPage policyId={policyId} eventType={eventType} />;
}
