import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListCreatorsRequest,
  ListCreatorsResponseSchema,
} from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { requireCaller } from "../../../rpc/call-context";
import { tenantHasKey } from "../waiver-context-repository";
import { notFoundKey, type WaiverServiceDeps } from "../waiver-deps";
import { listCreators as creatorsOf } from "../waiver-repository";
import { parseKey } from "../waiver-rules";

export async function listCreators(
  { db }: WaiverServiceDeps,
  req: ListCreatorsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListCreatorsResponseSchema>> {
  const caller = requireCaller(ctx);
  const key = req.filter?.key ? parseKey(req.filter.key) : undefined;
  if (key && !(await tenantHasKey(db, caller.tenantId, key))) throw notFoundKey(key);
  return { creators: await creatorsOf(db, caller.tenantId, key) };
}
