import { DownloadIcon, LoaderIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ErrorDialog } from "@/components/error-dialog";
import { Button } from "@/components/ui/button";

/** How far an export job has got, as a page reads it from its service's GetExportStatus. */
export interface ExportJobProgress {
  succeeded: boolean;
  /** Why it failed, once it has. */
  failure: string | null;
  /** 0 to 100. */
  progress: number;
}

/**
 * Starts an export job, shows how far it has got, then has the browser download the file from the
 * export's signed link. `useProgress` reads the job's status (no job: an empty id).
 */
export function ExportJobButton({
  label,
  start,
  useProgress,
}: {
  label: string;
  start: () => Promise<{ jobId: string; presignedUrl: string }>;
  useProgress: (jobId: string) => ExportJobProgress;
}) {
  const [starting, setStarting] = useState(false);
  const [job, setJob] = useState<{ id: string; url: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const status = useProgress(job?.id ?? "");
  const downloaded = useRef("");

  useEffect(() => {
    if (!job || !status.succeeded || downloaded.current === job.id) return;
    downloaded.current = job.id;
    const link = document.createElement("a");
    link.href = job.url;
    link.download = "";
    document.body.append(link);
    link.click();
    link.remove();
    setJob(null);
  }, [job, status.succeeded]);

  useEffect(() => {
    if (job && status.failure !== null) {
      setError(new Error(`The export failed: ${status.failure || "unknown error"}. Try again.`));
      setJob(null);
    }
  }, [job, status.failure]);

  const running = starting || job !== null;
  const run = async () => {
    setStarting(true);
    try {
      const started = await start();
      // The link is absolute, built from the server's public address; downloads stay on this origin.
      const url = new URL(started.presignedUrl, window.location.origin);
      setJob({ id: started.jobId, url: `${url.pathname}${url.search}` });
    } catch (e) {
      setError(e);
    } finally {
      setStarting(false);
    }
  };
  const percent = status.progress;
  return (
    <>
      <Button variant="outline" onClick={() => void run()} disabled={running}>
        {running ? <LoaderIcon className="animate-spin" /> : <DownloadIcon />}
        {running ? `Exporting… ${percent}%` : label}
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
