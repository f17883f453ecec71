import { createFileRoute } from "@tanstack/react-router";
import { ScrollIndicatorPage } from "@/features/showcase/components/scroll-indicator-page";

export const Route = createFileRoute("/_external/ui-components/scroll-indicator/")({
  component: ScrollIndicatorPage,
});
