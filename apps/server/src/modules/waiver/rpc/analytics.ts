import { WaiverSuggestion } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import type { Database } from "../../../db/database";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { waiverAnalytics } from "../waiver-analytics";
import { waiversForAnalytics } from "../waiver-analytics-repository";
import type { WaiverAnalyticsRpc } from "../waiver-deps";

const DAY_MS = 86_400_000;

export function analytics(deps: { db: Database }): WaiverAnalyticsRpc["analytics"] {
  return async (req, ctx) => {
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
  };
}
