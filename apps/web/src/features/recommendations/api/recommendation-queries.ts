import { useMutation } from "@connectrpc/connect-query";
import { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";

/** No page lists recommendations from the service yet, so adding one leaves every cached answer as it is. */
export function useAddRecommendation() {
  return useMutation(RecommendationService.method.addRecommendation);
}
