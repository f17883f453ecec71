import { createFileRoute } from "@tanstack/react-router";
import { RecommendationsPage } from "@/features/recommendations/components/recommendations-page";
import { recommendationsSearchSchema } from "../-search";

export const Route = createFileRoute("/_authenticated/recommendations/archive/")({
  validateSearch: recommendationsSearchSchema,
  component: ArchivedRecommendationsRoute,
});

function ArchivedRecommendationsRoute() {
  const { recommendationId } = Route.useSearch();
  return <RecommendationsPage archived recommendationId={recommendationId} />;
}
