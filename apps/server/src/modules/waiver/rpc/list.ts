import { ListOrderBy } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import { tenantHasKey } from "../waiver-context-repository";
import { notFoundKey, type WaiverRpc, type WaiverServiceDeps } from "../waiver-deps";
import { waiverMessage } from "../waiver-message";
import { listWaivers } from "../waiver-repository";
import { nameOfStatus, parseKey } from "../waiver-rules";

export const MAX_FILTER_ITEMS = 100;
const MAX_COMMENT_FILTER = 220;
const MAX_EXPIRING_HOURS = 168;

export function list({ db }: WaiverServiceDeps): WaiverRpc["list"] {
  return async (req, ctx) => {
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
    if (statuses.length > MAX_FILTER_ITEMS || requestedBy.length > MAX_FILTER_ITEMS) {
      throw invalidArgument(`A filter list may hold at most ${MAX_FILTER_ITEMS} values.`);
    }
    const comment = filter?.comment?.trim();
    if (comment && comment.length > MAX_COMMENT_FILTER) {
      throw invalidArgument(`The comment filter must be at most ${MAX_COMMENT_FILTER} characters.`, [
        { field: "filter.comment", message: `at most ${MAX_COMMENT_FILTER} characters.` },
      ]);
    }
    const within = filter?.expiringWithinHours;
    if (within !== undefined && (within < 1 || within > MAX_EXPIRING_HOURS)) {
      throw invalidArgument(`expiring_within_hours must be 1 to ${MAX_EXPIRING_HOURS}.`, [
        { field: "filter.expiring_within_hours", message: `1 to ${MAX_EXPIRING_HOURS}` },
      ]);
    }
    if (req.orderBy !== ListOrderBy.UNSPECIFIED && ListOrderBy[req.orderBy] === undefined) {
      throw invalidArgument("order_by must be CREATED_AT or STATUS.", [
        { field: "order_by", message: "must be CREATED_AT or STATUS." },
      ]);
    }
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
  };
}
