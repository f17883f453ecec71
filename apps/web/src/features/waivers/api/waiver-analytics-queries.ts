import { createQueryOptions } from "@connectrpc/connect-query";
import { WaiverAnalyticsService } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import { appTransport } from "@/lib/transport";

export const ANALYTICS_DAYS = 30;

/** Waiver analytics over the last 30 days: every policy, or the one of a Waivers tab. */
export function waiverAnalyticsQuery(bundleId = "") {
  return createQueryOptions(
    WaiverAnalyticsService.method.analytics,
    { days: ANALYTICS_DAYS, bundleId },
    { transport: appTransport },
  );
}
