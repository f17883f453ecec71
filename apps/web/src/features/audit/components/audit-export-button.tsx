import { ExportStatus } from "@palisade/api/gen/palisade/audit/v1/audit_pb";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { useQuery } from "@tanstack/react-query";
import { DownloadIcon, LoaderIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ErrorDialog } from "@/components/error-dialog";
import { Button } from "@/components/ui/button";
import { auditExportStatusQuery, auditFilter, useAuditExport } from "../api/audit-queries";
import type { AuditSearch } from "../audit-search";

const LABELS = { [ExportFormat.CSV]: "Export CSV", [ExportFormat.JSON_LINES]: "Export JSON Lines" } as const;

/**
 * Exports the records the filters select: the server writes the file in a job, the button shows
 * how far it has got, then the browser downloads it. JSON Lines keeps the hashes for verification.
 */
export function AuditExportButton({
  search,
  format,
}: {
  search: AuditSearch;
  format: ExportFormat.CSV | ExportFormat.JSON_LINES;
}) {
  const start = useAuditExport();
  const [job, setJob] = useState<{ id: string; url: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const status = useQuery(auditExportStatusQuery(job?.id ?? ""));
  const downloaded = useRef("");

  useEffect(() => {
    if (!job || status.data?.status !== ExportStatus.SUCCEEDED || downloaded.current === job.id) return;
    downloaded.current = job.id;
    const link = document.createElement("a");
    link.href = job.url;
    link.download = "";
    document.body.append(link);
    link.click();
    link.remove();
    setJob(null);
  }, [job, status.data?.status]);

  useEffect(() => {
    if (status.data?.status === ExportStatus.FAILED) {
      setError(new Error(`The export failed: ${status.data.error || "unknown error"}. Try again.`));
      setJob(null);
    }
  }, [status.data]);

  const running = start.isPending || job !== null;
  const run = async () => {
    try {
      const started = await start.mutateAsync({ filter: auditFilter(search), format });
      // The link is absolute, built from the server's public address; downloads stay on this origin.
      const url = new URL(started.presignedUrl, window.location.origin);
      setJob({ id: started.jobId, url: `${url.pathname}${url.search}` });
    } catch (e) {
      setError(e);
    }
  };
  const percent = status.data?.progress ?? 0;
  return (
    <>
      <Button variant="outline" onClick={() => void run()} disabled={running}>
        {running ? <LoaderIcon className="animate-spin" /> : <DownloadIcon />}
        {running ? `Exporting… ${percent}%` : LABELS[format]}
      </Button>
      {running && (
        <progress className="sr-only" max={100} value={percent} aria-label="Export progress">
          {percent}%
        </progress>
      )}
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}
