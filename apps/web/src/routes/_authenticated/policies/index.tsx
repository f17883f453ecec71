import { createFileRoute } from "@tanstack/react-router";
import { PoliciesPage } from "@/features/policies/components/policies-page";

export const Route = createFileRoute("/_authenticated/policies/")({
  component: PoliciesPage,
});
