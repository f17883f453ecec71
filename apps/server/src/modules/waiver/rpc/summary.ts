import { requireCaller } from "../../../rpc/call-context";
import type { WaiverRpc, WaiverServiceDeps } from "../waiver-deps";
import { summarize } from "../waiver-repository";
import { parseKey } from "../waiver-rules";

export function summary({ db }: WaiverServiceDeps): WaiverRpc["summary"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const keys = req.filter?.keys ?? [];
    const counts = await summarize(db, caller.tenantId, keys.map(parseKey));
    return {
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      active: counts.ACTIVE,
      pending: counts.PENDING,
      rejected: counts.REJECTED,
      cancelled: counts.CANCELLED,
      expired: counts.EXPIRED,
      propagating: counts.PROPAGATING,
    };
  };
}
