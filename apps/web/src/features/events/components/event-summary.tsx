import type { MessageInitShape } from "@bufbuild/protobuf";
import type { EventFilterSchema } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { useQuery } from "@tanstack/react-query";
import { LoaderIcon, RefreshCwIcon } from "lucide-react";
import { useState } from "react";
import { ErrorDialog } from "@/components/error-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { eventSummaryQuery, resourceSummaryQuery, useTriggerFetch } from "../api/event-queries";

const counts = [
  ["prevention", "Prevented"],
  ["alerts", "Alerts"],
  ["waivers", "Waived"],
  ["drifts", "Drifts"],
  ["resolved", "Resolved"],
  ["dismissed", "Dismissed"],
] as const;

/**
 * The counts above the list, counting what the list shows: resources (by their newest event) in
 * the per-resource view, events in the every-event view.
 */
export function EventSummaryCards({
  filter,
  perResource = false,
}: {
  filter: MessageInitShape<typeof EventFilterSchema>;
  perResource?: boolean;
}) {
  const events = useQuery({ ...eventSummaryQuery(filter), enabled: !perResource });
  const resources = useQuery({ ...resourceSummaryQuery(filter), enabled: perResource });
  const summary = perResource
    ? { isError: resources.isError, data: resources.data && { summary: resources.data.total } }
    : events;
  if (summary.isError) return null;
  return (
    <dl
      className="grid grid-cols-3 gap-3 sm:grid-cols-6"
      aria-label={perResource ? "Resource counts" : "Event counts"}
    >
      {counts.map(([field, label]) => (
        <Card key={field} className="py-3">
          <CardContent className="px-4">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums">
              {summary.data?.summary ? summary.data.summary[field] : <Skeleton className="mt-1 h-7 w-8" />}
            </dd>
          </CardContent>
        </Card>
      ))}
    </dl>
  );
}

/** Asks the service to read the clouds' logs now instead of at the next scheduled fetch. */
export function FetchNowButton() {
  const fetchNow = useTriggerFetch();
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    try {
      await fetchNow.mutateAsync({});
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <Button variant="outline" onClick={() => void run()} disabled={fetchNow.isPending}>
        {fetchNow.isPending ? <LoaderIcon className="animate-spin" /> : <RefreshCwIcon />}
        Fetch events now
      </Button>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}
