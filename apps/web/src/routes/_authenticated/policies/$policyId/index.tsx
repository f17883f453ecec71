import { createFileRoute } from "@tanstack/react-router";
import { PolicyDetailPage } from "@/features/policies/components/policy-detail-page";
import { policyDetailSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/policies/$policyId/")({
  validateSearch: policyDetailSearchSchema,
  component: PolicyDetailRoute,
});

function PolicyDetailRoute() {
  const { policyId } = Route.useParams();
  const { tab, eventType } = Route.useSearch();
  return <PolicyDetailPage policyId={policyId} tab={tab} eventType={eventType} />;
}
