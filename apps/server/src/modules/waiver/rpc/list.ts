import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { ListRequest, ListResponseSchema } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { ListOrderBy } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { tenantHasKey } from "../waiver-context-repository";
import { notFoundKey, type WaiverServiceDeps } from "../waiver-deps";
import { waiverMessage } from "../waiver-message";
import { listWaivers } from "../waiver-repository";
import { nameOfStatus, parseKey } from "../waiver-rules";

export async function list(
  { db }: WaiverServiceDeps,
  req: ListRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const filter = req.filter;
  const key = filter?.key ? parseKey(filter.key) : undefined;
  if (key && !(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
  const statuses = (filter?.status ?? []).map((s) => {
    const name = nameOfStatus(s);
    if (!name) throw invalidArgument(`Unknown waiver status ${s} in the status filter.`);
    return name;
  });
  const requestedBy = filter?.requestedBy ?? [];
  const comment = filter?.comment?.trim();
  if (req.orderBy !== ListOrderBy.UNSPECIFIED && ListOrderBy[req.orderBy] === undefined) {
    throw invalidArgument("order_by must be CREATED_AT or STATUS.", [
      { field: "order_by", message: "must be CREATED_AT or STATUS." },
    ]);
  }
  const within = filter?.expiringWithinHours;
  const { rows, total } = await listWaivers(
    db,
    caller.tenantId,
    {
      key,
      statuses,
      requestedBy,
      comment: comment || undefined,
      orderBy: req.orderBy === ListOrderBy.STATUS ? "status" : "created_at",
      expiringBefore: within === undefined ? undefined : new Date(Date.now() + within * 3_600_000),
    },
    window,
  );
  return { items: rows.map(waiverMessage), pagination: pageResponse(total, window) };
}
