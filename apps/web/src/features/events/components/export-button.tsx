import type { MessageInitShape } from "@bufbuild/protobuf";
import { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { type EventFilterSchema, ExportStatus } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { useQuery } from "@tanstack/react-query";
import { ExportJobButton, type ExportJobProgress } from "@/components/export-job-button";
import { exportStatusQuery, useExportAsync } from "../api/event-queries";

function useEventExportProgress(jobId: string): ExportJobProgress {
  const { data } = useQuery(exportStatusQuery(jobId));
  return {
    succeeded: data?.status === ExportStatus.SUCCEEDED,
    failure: data?.status === ExportStatus.FAILED ? data.error : null,
    progress: data?.progress ?? 0,
  };
}

/** Exports the events the filter selects as CSV, with the export's progress. */
export function ExportButton({ filter }: { filter: MessageInitShape<typeof EventFilterSchema> }) {
  const start = useExportAsync();
  return (
    <ExportJobButton
      label="Export CSV"
      start={() => start.mutateAsync({ filter, format: ExportFormat.CSV })}
      useProgress={useEventExportProgress}
    />
  );
}
