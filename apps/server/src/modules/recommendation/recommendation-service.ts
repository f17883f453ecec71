import type { ServiceImpl } from "@connectrpc/connect";
import type { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import type { RecommendationServiceDeps } from "./recommendation-deps";
import { addRecommendation } from "./rpc/add-recommendation";
import { archiveRecommendation } from "./rpc/archive-recommendation";
import { getRecommendation } from "./rpc/get-recommendation";
import { installRecommendation } from "./rpc/install-recommendation";
import { listRecommendations } from "./rpc/list-recommendations";
import { markRecommendationInstalled } from "./rpc/mark-recommendation-installed";
import { refreshRecommendations } from "./rpc/refresh-recommendations";
import { unarchiveRecommendation } from "./rpc/unarchive-recommendation";

export function createRecommendationService(
  deps: RecommendationServiceDeps,
): ServiceImpl<typeof RecommendationService> {
  return {
    listRecommendations: (req, ctx) => listRecommendations(deps, req, ctx),
    getRecommendation: (req, ctx) => getRecommendation(deps, req, ctx),
    archiveRecommendation: (req, ctx) => archiveRecommendation(deps, req, ctx),
    unarchiveRecommendation: (req, ctx) => unarchiveRecommendation(deps, req, ctx),
    addRecommendation: (req, ctx) => addRecommendation(deps, req, ctx),
    installRecommendation: (req, ctx) => installRecommendation(deps, req, ctx),
    markRecommendationInstalled: (req, ctx) => markRecommendationInstalled(deps, req, ctx),
    refreshRecommendations: (req, ctx) => refreshRecommendations(deps, req, ctx),
  };
}
