import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { AuditService, ExportStatus } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { appTransport } from "@/lib/transport";
import type { AuditSearch } from "../audit-search";

export const AUDIT_PAGE_SIZE = 50;

/** The request's filter from the page's address. */
export function auditFilter(search: AuditSearch) {
  return {
    actorId: search.actor ?? "",
    action: search.action ?? "",
    targetType: search.targetType ?? "",
    targetId: search.target ?? "",
    timeRange:
      search.from || search.to
        ? {
            start: search.from ? timestampFromDate(new Date(search.from)) : undefined,
            end: search.to ? timestampFromDate(new Date(search.to)) : undefined,
          }
        : undefined,
  };
}

export function auditListQuery(search: AuditSearch) {
  return createQueryOptions(
    AuditService.method.list,
    {
      filter: auditFilter(search),
      pagination: { position: { case: "page", value: search.page ?? 1 }, limit: AUDIT_PAGE_SIZE },
    },
    { transport: appTransport },
  );
}

export function useAuditExport() {
  return useMutation(AuditService.method.exportAsync);
}

const EXPORT_POLL_MS = 500;

/** An export's progress, read again until it has succeeded or failed. */
export function auditExportStatusQuery(jobId: string) {
  return {
    ...createQueryOptions(AuditService.method.getExportStatus, { jobId }, { transport: appTransport }),
    refetchInterval: (query: { state: { data?: { status: ExportStatus } } }) =>
      query.state.data?.status === ExportStatus.SUCCEEDED || query.state.data?.status === ExportStatus.FAILED
        ? false
        : EXPORT_POLL_MS,
    enabled: jobId !== "",
  };
}
