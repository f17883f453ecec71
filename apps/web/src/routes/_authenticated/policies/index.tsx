import { createFileRoute } from "@tanstack/react-router";
import { PoliciesPage } from "@/features/policies/components/policies-page";
import { RouteNotice } from "@/components/route-notice";
import { policiesSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/policies/")({
  validateSearch: policiesSearchSchema,
  component: PoliciesRoute,
});

function PoliciesRoute() {
  return (
    <>
      <RouteNotice />
      <PoliciesPage search={Route.useSearch()} />
    </>
  );
}
