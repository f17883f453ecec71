import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { ListRequest, ListResponseSchema } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { requireCaller } from "../../../rpc/call-context";
import { pageResponse, pageWindow } from "../../../rpc/pagination";
import type { AuditServiceDeps } from "../audit-deps";
import { auditRecordMessage } from "../audit-message";
import { listAuditRecords } from "../audit-query-repository";
import { queryOf } from "../audit-request";

export async function list(
  deps: AuditServiceDeps,
  req: ListRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListResponseSchema>> {
  const caller = requireCaller(ctx);
  const window = pageWindow(req.pagination);
  const { rows, total } = await listAuditRecords(deps.db, caller.tenantId, queryOf(req.filter), window);
  return { items: rows.map(auditRecordMessage), pagination: pageResponse(total, window) };
}
