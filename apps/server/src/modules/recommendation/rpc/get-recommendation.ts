import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetRecommendationRequest,
  GetRecommendationResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { type RecommendationServiceDeps, requireRecommendation } from "../recommendation-deps";
import { recommendationMessage } from "../recommendation-message";

export async function getRecommendation(
  deps: RecommendationServiceDeps,
  req: GetRecommendationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetRecommendationResponseSchema>> {
  const caller = requireCaller(ctx);
  const row = await requireRecommendation(deps.db, caller.tenantId, req.id);
  return { recommendation: recommendationMessage(row) };
}
