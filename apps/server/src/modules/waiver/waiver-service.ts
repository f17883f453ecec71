import { cancel } from "./rpc/cancel";
import { create } from "./rpc/create";
import { getOwn } from "./rpc/get-own";
import { list } from "./rpc/list";
import { listCreators } from "./rpc/list-creators";
import { summary } from "./rpc/summary";
import { update } from "./rpc/update";
import type { WaiverRpc, WaiverServiceDeps } from "./waiver-deps";

/**
 * WaiverService (spec section 7): requests, reviews and cancellations of waivers. The waiver
 * lifecycle makes every change; expiry is a job.
 */
export function createWaiverService(deps: WaiverServiceDeps): WaiverRpc {
  return {
    create: create(deps),
    getOwn: getOwn(deps),
    list: list(deps),
    listCreators: listCreators(deps),
    summary: summary(deps),
    cancel: cancel(deps),
    update: update(deps),
  };
}
