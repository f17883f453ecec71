import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import { BucketSize, type SummaryEventsRequest } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { EventServiceDeps } from "../event-deps";
import { asDate, summaryMessage } from "../event-message";
import { parseEventFilter } from "../event-request";
import { summarize, summarizeBuckets, summaryOf } from "../event-summary-repository";

/** Counts by kind per hour, day (the default) or week. */
export async function summaryEvents(
  { db }: EventServiceDeps,
  req: SummaryEventsRequest,
  ctx: HandlerContext,
) {
  const caller = requireCaller(ctx);
  const q = await parseEventFilter(db, caller.tenantId, req.filter);
  const bucket =
    req.bucketSize === BucketSize.HOUR ? "hour" : req.bucketSize === BucketSize.WEEK ? "week" : "day";
  const [total, rows] = await Promise.all([
    summarize(db, caller.tenantId, q),
    summarizeBuckets(db, caller.tenantId, q, bucket),
  ]);
  return {
    total: summaryMessage(total),
    buckets: rows.map((r) => ({
      start: timestampFromDate(asDate(r.bucket) as Date),
      summary: summaryMessage(summaryOf(r)),
    })),
  };
}
