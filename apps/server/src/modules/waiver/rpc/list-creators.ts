import { requireCaller } from "../../../rpc/call-context";
import { tenantHasKey } from "../waiver-context-repository";
import { notFoundKey, type WaiverRpc, type WaiverServiceDeps } from "../waiver-deps";
import { listCreators as creatorsOf } from "../waiver-repository";
import { parseKey } from "../waiver-rules";

export function listCreators({ db }: WaiverServiceDeps): WaiverRpc["listCreators"] {
  return async (req, ctx) => {
    const caller = requireCaller(ctx);
    const key = req.filter?.key ? parseKey(req.filter.key) : undefined;
    if (key && !(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
    return { creators: await creatorsOf(db, caller.tenantId, key) };
  };
}
