import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  RefreshRecommendationsRequest,
  RefreshRecommendationsResponseSchema,
} from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { enqueueEventFetch } from "../../../jobs/event-fetch-job";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { connectorProvider } from "../../connector/connector-api";
import type { RecommendationServiceDeps } from "../recommendation-deps";
import { readTenantConnectors } from "../recommendation-facts-repository";

/**
 * Recomputes the caller's tenant's recommendations now, one computation per tenant at a time,
 * from the AWS requests stored so far; and queues a fetch of each AWS connector, whose
 * recomputation when done brings in what arrived since.
 */
export async function refreshRecommendations(
  deps: RecommendationServiceDeps,
  _req: RefreshRecommendationsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof RefreshRecommendationsResponseSchema>> {
  const caller = requireCaller(ctx);
  const outcome = await deps.computer.compute(caller.tenantId);
  for (const connector of await readTenantConnectors(deps.db, caller.tenantId))
    if (connectorProvider(connector) === "aws")
      await enqueueEventFetch(deps.jobs, { tenantId: caller.tenantId, connectorId: connector.id });
  await deps.db.transaction((tx) =>
    recordAudit(tx, ctx, { target: { type: "tenant", id: caller.tenantId }, after: { ...outcome } }),
  );
  return outcome;
}
