import type { ServiceImpl } from "@connectrpc/connect";
import type { WaiverAnalyticsService } from "@palisade/api/gen/palisade/waiver/v1/waiver_analytics_pb";
import type { Database } from "../../db/database";
import { analytics } from "./rpc/analytics";

export type WaiverAnalyticsRpc = ServiceImpl<typeof WaiverAnalyticsService>;

/** WaiverAnalyticsService: what the waiver history of each policy says. */
export function createWaiverAnalyticsService(deps: { db: Database }): WaiverAnalyticsRpc {
  return { analytics: analytics(deps) };
}
