import { createFileRoute } from "@tanstack/react-router";
import { CreatePolicyPage } from "@/features/policies/components/create-policy-page";
import { policyCreateSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/policies/create/")({
  validateSearch: policyCreateSearchSchema,
  component: CreatePolicyRoute,
});

function CreatePolicyRoute() {
  return <CreatePolicyPage context={Route.useSearch()} />;
}
