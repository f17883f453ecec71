import { ExportStatus } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { useQuery } from "@tanstack/react-query";
import { ExportJobButton, type ExportJobProgress } from "@/components/export-job-button";
import { auditExportStatusQuery, auditFilter, useAuditExport } from "../api/audit-queries";
import type { AuditSearch } from "../audit-search";

const LABELS = { [ExportFormat.CSV]: "Export CSV", [ExportFormat.JSON_LINES]: "Export JSON Lines" } as const;

function useAuditExportProgress(jobId: string): ExportJobProgress {
  const { data } = useQuery(auditExportStatusQuery(jobId));
  return {
    succeeded: data?.status === ExportStatus.SUCCEEDED,
    failure: data?.status === ExportStatus.FAILED ? data.error : null,
    progress: data?.progress ?? 0,
  };
}

/** Exports the records the filters select; JSON Lines keeps the hashes for verification. */
export function AuditExportButton({
  search,
  format,
}: {
  search: AuditSearch;
  format: ExportFormat.CSV | ExportFormat.JSON_LINES;
}) {
  const start = useAuditExport();
  return (
    <ExportJobButton
      label={LABELS[format]}
      start={() => start.mutateAsync({ filter: auditFilter(search), format })}
      useProgress={useAuditExportProgress}
    />
  );
}
