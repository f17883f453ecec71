import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Order } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type {
  ListBundleRequest,
  ListBundleResponseSchema,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidField } from "../../../rpc/errors";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { BUNDLE_ORDERS, readBundleFilter } from "../bundle-filter";
import { listBundles } from "../bundle-query-repository";
import type { DeploymentServiceDeps } from "../deployment-deps";
import { excludedBundleFields, extendedBundleMessage } from "../deployment-message";

export async function listBundle(
  { db }: DeploymentServiceDeps,
  req: ListBundleRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListBundleResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const filter = readBundleFilter(req.filter);
  const excluded = excludedBundleFields(req.excludeMask?.paths);
  const by = BUNDLE_ORDERS[req.orderBy];
  if (by === undefined)
    throw invalidField("order_by", "use CREATED_AT, NAME, MODE, STATUS or PREVENTIONS_COUNT.");
  // Names read A to Z unless asked otherwise; everything else newest or largest first.
  const order = req.pagination?.order ?? Order.UNSPECIFIED;
  const descending = order === Order.UNSPECIFIED ? by !== "name" : order === Order.DESCENDING;
  const { items, total } = await listBundles(db, caller.tenantId, filter, { by, descending }, window);
  return {
    items: items.map((item) => extendedBundleMessage(item.bundle, item.counts, excluded)),
    pagination: pageResponse(total, window),
  };
}
