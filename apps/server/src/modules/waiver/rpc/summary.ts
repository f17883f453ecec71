import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  SummaryRequest,
  SummaryResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { WaiverServiceDeps } from "../waiver-deps";
import { summarize } from "../waiver-repository";
import { parseKey } from "../waiver-rules";

export async function summary(
  { db }: WaiverServiceDeps,
  req: SummaryRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SummaryResponseSchema>> {
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
}
