import type { ServiceImpl } from "@connectrpc/connect";
import type { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { cancel } from "./rpc/cancel";
import { create } from "./rpc/create";
import { getOwn } from "./rpc/get-own";
import { list } from "./rpc/list";
import { listCreators } from "./rpc/list-creators";
import { summary } from "./rpc/summary";
import { update } from "./rpc/update";
import type { WaiverServiceDeps } from "./waiver-deps";

/**
 * WaiverService (spec section 7): requests, reviews and cancellations of waivers. The waiver
 * lifecycle makes every change; expiry is a job.
 */
export function createWaiverService(deps: WaiverServiceDeps): ServiceImpl<typeof WaiverService> {
  return {
    create: (req, ctx) => create(deps, req, ctx),
    getOwn: (req, ctx) => getOwn(deps, req, ctx),
    list: (req, ctx) => list(deps, req, ctx),
    listCreators: (req, ctx) => listCreators(deps, req, ctx),
    summary: (req, ctx) => summary(deps, req, ctx),
    cancel: (req, ctx) => cancel(deps, req, ctx),
    update: (req, ctx) => update(deps, req, ctx),
  };
}
