import { createFileRoute } from "@tanstack/react-router";
import { RecommendationsPage } from "@/features/recommendations/components/recommendations-page";
import { recommendationsSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/recommendations/")({
  validateSearch: recommendationsSearchSchema,
  component: RecommendationsRoute,
});

function RecommendationsRoute() {
  const { recommendationId } = Route.useSearch();
  return <RecommendationsPage archived={false} recommendationId={recommendationId} />;
}
