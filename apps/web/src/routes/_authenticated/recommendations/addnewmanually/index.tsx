import { createFileRoute } from "@tanstack/react-router";
import { AddRecommendationPage } from "@/features/recommendations/components/add-recommendation-page";

export const Route = createFileRoute("/_authenticated/recommendations/addnewmanually/")({
  component: AddRecommendationPage,
});
