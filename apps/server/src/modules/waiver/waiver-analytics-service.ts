import type { Database } from "../../db/database";
import { analytics } from "./rpc/analytics";
import type { WaiverAnalyticsRpc } from "./waiver-deps";

/** WaiverAnalyticsService: what the waiver history of each policy says. */
export function createWaiverAnalyticsService(deps: { db: Database }): WaiverAnalyticsRpc {
  return { analytics: analytics(deps) };
}
