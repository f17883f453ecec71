import type { ServiceImpl } from "@connectrpc/connect";
import type { WaiverAnalyticsService } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { analytics } from "./rpc/analytics";
import type { WaiverAnalyticsServiceDeps } from "./waiver-deps";

/** WaiverAnalyticsService: what the waiver history of each policy says. */
export function createWaiverAnalyticsService(
  deps: WaiverAnalyticsServiceDeps,
): ServiceImpl<typeof WaiverAnalyticsService> {
  return { analytics: (req, ctx) => analytics(deps, req, ctx) };
}
