import { createFileRoute } from "@tanstack/react-router";
import { RouteNotice } from "@/components/route-notice";
import { PoliciesPage } from "@/features/policies/components/policies-page";
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
