import { createFileRoute } from "@tanstack/react-router";
import { ShowcasePage } from "@/features/showcase/components/showcase-page";

export const Route = createFileRoute("/_external/ui-components/")({
  component: ShowcasePage,
});
