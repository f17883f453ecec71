import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ExportAsyncRequest,
  ExportAsyncResponseSchema,
} from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { AuditServiceDeps } from "../audit-deps";
import { AUDIT_EXPORT, auditExportParams } from "../audit-export";
import { formatOf, queryOf } from "../audit-request";

export async function exportAsync(
  deps: AuditServiceDeps,
  req: ExportAsyncRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ExportAsyncResponseSchema>> {
  const caller = requireCaller(ctx);
  const result = await deps.exports.exportLater({
    tenantId: caller.tenantId,
    kind: AUDIT_EXPORT,
    params: { ...auditExportParams(queryOf(req.filter)) },
    format: formatOf(req.format),
    createdBy: caller.id,
    ctx,
  });
  return { presignedUrl: result.presignedUrl, jobId: result.jobId };
}
