import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import {
  type Recommendation,
  RecommendationKind,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";

export const kindLabel: Record<RecommendationKind, string> = {
  [RecommendationKind.UNSPECIFIED]: "Recommendation",
  [RecommendationKind.FRAMEWORK_GAP]: "Framework gap",
  [RecommendationKind.OBSERVED_ACTIVITY]: "Observed activity",
  [RecommendationKind.DRIFT]: "Drift",
  [RecommendationKind.OFTEN_WAIVED]: "Often waived",
  [RecommendationKind.UNGUARDED_SCOPE]: "Unguarded scope",
  [RecommendationKind.MANUAL]: "Added manually",
};

export const providerLabel = (provider: CloudProvider) =>
  provider === CloudProvider.AWS ? "AWS" : provider === CloudProvider.AZURE ? "Azure" : "Cloud";

export const modeLabel = (mode: DeploymentMode) => (mode === DeploymentMode.PREVENT ? "Prevent" : "Alert");

/** The policy create form's search parameters that install this recommendation (spec section 2). */
export function installSearch(recommendation: Recommendation) {
  const provider = recommendation.provider === CloudProvider.AZURE ? ("Azure" as const) : ("AWS" as const);
  return {
    recommendationId: recommendation.entity?.id ?? "",
    recommendationTitle: recommendation.title,
    provider,
    defaultSelectedPolicies: recommendation.policySlugs,
  };
}
