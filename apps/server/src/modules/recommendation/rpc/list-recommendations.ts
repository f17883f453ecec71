import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type {
  ListRecommendationsRequest,
  ListRecommendationsResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { searchText } from "../../policy-definition/policy-definition-api";
import type { RecommendationServiceDeps } from "../recommendation-deps";
import { recommendationMessage } from "../recommendation-message";
import { listRecommendations as listRows } from "../recommendation-repository";

export async function listRecommendations(
  deps: RecommendationServiceDeps,
  req: ListRecommendationsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListRecommendationsResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const provider =
    req.provider === CloudProvider.AWS ? "aws" : req.provider === CloudProvider.AZURE ? "azure" : undefined;
  const { rows, total } = await listRows(
    deps.db,
    caller.tenantId,
    { archived: req.archived, provider, search: searchText(req.search) },
    window,
  );
  return { items: rows.map(recommendationMessage), pagination: pageResponse(total, window) };
}
