import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  UnarchiveRecommendationRequest,
  UnarchiveRecommendationResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { type RecommendationServiceDeps, requireRecommendation } from "../recommendation-deps";
import { recommendationMessage } from "../recommendation-message";
import { setArchived } from "../recommendation-repository";

export async function unarchiveRecommendation(
  deps: RecommendationServiceDeps,
  req: UnarchiveRecommendationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof UnarchiveRecommendationResponseSchema>> {
  const caller = requireCaller(ctx);
  const current = await requireRecommendation(deps.db, caller.tenantId, req.id);
  const row = await deps.db.transaction(async (tx) => {
    const row = (await setArchived(tx, caller.tenantId, current.id, false)) ?? current;
    await recordAudit(tx, ctx, {
      target: { type: "recommendation", id: row.id },
      after: { title: row.title },
    });
    return row;
  });
  return { recommendation: recommendationMessage(row) };
}
