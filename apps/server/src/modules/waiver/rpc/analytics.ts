import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  AnalyticsRequest,
  AnalyticsResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { WaiverSuggestion } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { waiverAnalytics } from "../waiver-analytics";
import { waiversForAnalytics } from "../waiver-analytics-repository";
import type { WaiverAnalyticsServiceDeps } from "../waiver-deps";

const DAY_MS = 86_400_000;

export async function analytics(
  deps: WaiverAnalyticsServiceDeps,
  req: AnalyticsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof AnalyticsResponseSchema>> {
  const { tenantId } = requireCaller(ctx);
  const days = req.days === 0 ? 30 : req.days;
  if (days > 365) throw invalidArgument("days must be 1 to 365.", [{ field: "days", message: "1 to 365" }]);
  if (req.bundleId.length > 64)
    throw invalidArgument("bundle_id is too long.", [
      { field: "bundle_id", message: "at most 64 characters" },
    ]);
  const now = new Date();
  const rows = await waiversForAnalytics(
    deps.db,
    tenantId,
    new Date(now.getTime() - days * DAY_MS),
    req.bundleId || undefined,
  );
  return {
    policies: waiverAnalytics(rows, now).map((p) => ({ ...p, suggestion: WaiverSuggestion[p.suggestion] })),
  };
}
