import type { MessageInitShape } from "@bufbuild/protobuf";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { type EventFilterSchema, ExportStatus } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { useQuery } from "@tanstack/react-query";
import { DownloadIcon, LoaderIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ErrorDialog } from "@/components/error-dialog";
import { Button } from "@/components/ui/button";
import { exportStatusQuery, useExportAsync } from "../api/event-queries";

/**
 * Exports the events the filter selects as CSV: the server writes the file in a job, the button
 * shows how far it has got, then the browser downloads it from the export's signed link.
 */
export function ExportButton({ filter }: { filter: MessageInitShape<typeof EventFilterSchema> }) {
  const start = useExportAsync();
  const [job, setJob] = useState<{ id: string; url: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const status = useQuery(exportStatusQuery(job?.id ?? ""));
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
      const started = await start.mutateAsync({ filter, format: ExportFormat.CSV });
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
        {running ? `Exporting… ${percent}%` : "Export CSV"}
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
