import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RefreshRecommendationsRequest,
  RefreshRecommendationsResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-log";
import type { RecommendationServiceDeps } from "../recommendation-deps";

/** Recomputes the caller's tenant's recommendations now; one computation per tenant at a time. */
export async function refreshRecommendations(
  deps: RecommendationServiceDeps,
  _req: RefreshRecommendationsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RefreshRecommendationsResponseSchema>> {
  const caller = requireCaller(ctx);
  const outcome = await deps.computer.compute(caller.tenantId);
  await deps.db.transaction((tx) =>
    recordAudit(tx, ctx, { target: { type: "tenant", id: caller.tenantId }, after: { ...outcome } }),
  );
  return outcome;
}
