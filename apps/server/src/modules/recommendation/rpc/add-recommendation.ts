import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  AddRecommendationRequest,
  AddRecommendationResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { loadTenantCatalogue } from "../../policy-definition/policy-definition-api";
import type { RecommendationServiceDeps } from "../recommendation-deps";
import { readRecommendationInput } from "../recommendation-input";
import { recommendationMessage } from "../recommendation-message";
import { insertManualRecommendation } from "../recommendation-repository";

export async function addRecommendation(
  deps: RecommendationServiceDeps,
  req: AddRecommendationRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof AddRecommendationResponseSchema>> {
  const caller = requireCaller(ctx);
  const view = await loadTenantCatalogue(deps.db, deps.catalogue, caller.tenantId);
  const input = await readRecommendationInput(deps.db, caller.tenantId, view, req);
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertManualRecommendation(tx, {
      tenantId: caller.tenantId,
      ...input,
      createdBy: caller.name,
    });
    await recordAudit(tx, ctx, {
      target: { type: "recommendation", id: inserted.id, name: inserted.title },
      after: { title: inserted.title, policySlugs: inserted.policySlugs },
    });
    return inserted;
  });
  return { recommendation: recommendationMessage(row) };
}
