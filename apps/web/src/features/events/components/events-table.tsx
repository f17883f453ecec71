import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { EventType, type ResourceEvent } from "@palisade/api/gen/palisade/event/v1/event_pb";
import type { EventFilterSchema } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ExternalLinkIcon, EyeIcon, EyeOffIcon } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { EmptyState } from "@/components/empty-state";
import { ErrorDialog } from "@/components/error-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Textarea } from "@/components/ui/textarea";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { safeUrl } from "@/lib/safe-url";
import { resourceEventsQuery, useUpdateResources } from "../api/event-queries";
import { eventTypeText, eventUserName, neighbours, type PageCursor } from "../event-filter";

function EventRow({
  item,
  canDismiss,
  showPolicy,
  onError,
}: {
  item: ResourceEvent;
  canDismiss: boolean;
  showPolicy: boolean;
  onError: (error: unknown) => void;
}) {
  const update = useUpdateResources();
  const [confirmDismiss, setConfirmDismiss] = useState(false);
  const [reason, setReason] = useState("");
  const event = item.event;
  if (!event) return null;
  const type = eventTypeText[event.type];
  const link = event.resource?.link ? safeUrl(event.resource.link) : "";
  const toggle = async (reason = "") => {
    try {
      await update.mutateAsync({ id: event.entity?.id ?? "", isDismissed: !item.isDismissed, reason });
    } catch (error) {
      onError(error);
    }
  };
  const time = item.lastOccurredTime ?? event.occurredTime;
  return (
    <TableRow data-testid="event-row">
      <TableCell>
        <Badge variant={type.variant}>{type.label}</Badge>
        {item.isDismissed && (
          <Badge variant="outline" className="ml-1">
            Dismissed
          </Badge>
        )}
      </TableCell>
      <TableCell className="max-w-xs whitespace-normal">
        <span className="flex items-center gap-1 font-medium">
          {event.resource?.name || event.resource?.details?.externalId || "—"}
          {link && (
            <a
              href={link}
              target="_blank"
              rel="noopener noreferrer"
              aria-label="Open the resource in the console"
            >
              <ExternalLinkIcon className="size-3.5 text-muted-foreground" />
            </a>
          )}
        </span>
        <span className="block text-xs text-muted-foreground">
          {[event.audits[0]?.action, event.resource?.details?.nativeType].filter(Boolean).join(" · ")}
        </span>
      </TableCell>
      {showPolicy && (
        <TableCell className="max-w-xs whitespace-normal">
          {event.policyDeployment?.bundleId && event.archived ? (
            // The policy was deleted: its events are kept on the archived page.
            <Link
              to="/policies/archived"
              search={{
                policyId: event.policyDeployment.bundleId,
                eventType:
                  event.type === EventType.DRIFT || event.type === EventType.HISTORICAL_DRIFT
                    ? "drift"
                    : "prevention",
              }}
              className="text-primary hover:underline"
            >
              {event.policyDeployment.name} (archived)
            </Link>
          ) : event.policyDeployment?.bundleId ? (
            <Link
              to="/policies/$policyId"
              params={{ policyId: event.policyDeployment.bundleId }}
              className="text-primary hover:underline"
            >
              {event.policyDeployment.name}
            </Link>
          ) : (
            event.policyDeployment?.name
          )}
          <span className="block font-mono text-xs text-muted-foreground">{event.policyDeployment?.key}</span>
        </TableCell>
      )}
      <TableCell className="max-w-[12rem] truncate" title={event.resource?.scope?.externalId}>
        {event.resource?.scope?.name || event.resource?.scope?.externalId}
      </TableCell>
      <TableCell className="max-w-[12rem] truncate" title={event.user?.identifier}>
        {eventUserName(event.user)}
      </TableCell>
      <TableCell className="text-sm whitespace-nowrap">
        {time ? timestampDate(time).toLocaleString() : "—"}
      </TableCell>
      {canDismiss && (
        <TableCell className="text-right">
          <Button
            size="sm"
            variant="ghost"
            disabled={update.isPending}
            onClick={() => (item.isDismissed ? void toggle() : setConfirmDismiss(true))}
          >
            {item.isDismissed ? <EyeIcon /> : <EyeOffIcon />}
            {item.isDismissed ? "Undismiss" : "Dismiss"}
          </Button>
          <ConfirmDialog
            open={confirmDismiss}
            onOpenChange={setConfirmDismiss}
            title="Dismiss this event?"
            description={`Every event of ${event.resource?.name || event.resource?.details?.externalId || "this resource"} for this policy leaves the list; it comes back under the Dismissed filter.`}
            confirmLabel="Dismiss event"
            pending={update.isPending}
            onConfirm={() => {
              setConfirmDismiss(false);
              void toggle(reason.trim());
              setReason("");
            }}
          >
            <div className="space-y-1 text-left">
              <Label htmlFor={`dismiss-reason-${event.entity?.id}`}>Reason (optional)</Label>
              <Textarea
                id={`dismiss-reason-${event.entity?.id}`}
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
              />
            </div>
          </ConfirmDialog>
        </TableCell>
      )}
    </TableRow>
  );
}

/** Resource events for a filter, newest first, a page at a time with previous / next. */
export function EventsTable({
  filter,
  showPolicy = true,
  emptyTitle,
  emptyDescription,
}: {
  filter: MessageInitShape<typeof EventFilterSchema>;
  showPolicy?: boolean;
  emptyTitle: string;
  emptyDescription: string;
}) {
  const permissions = usePermissions();
  const canDismiss = permissions.has(Permission.EVENTS_DISMISS);
  const [cursor, setCursor] = useState<PageCursor | undefined>(undefined);
  const [cursorFor, setCursorFor] = useState(filter);
  // A new filter starts again at the newest events.
  if (JSON.stringify(cursorFor) !== JSON.stringify(filter)) {
    setCursorFor(filter);
    setCursor(undefined);
  }
  const [error, setError] = useState<unknown>(null);
  const list = useQuery(resourceEventsQuery(filter, cursor));
  if (list.isPending) {
    return (
      <div className="space-y-2" role="status" aria-label="Loading events">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  }
  if (list.isError) {
    return (
      <EmptyState
        image="table"
        title="Events could not be loaded"
        description={describeError(list.error).message}
        action={
          <Button variant="outline" onClick={() => void list.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (list.data.items.length === 0 && !cursor) {
    return <EmptyState image="table" title={emptyTitle} description={emptyDescription} />;
  }
  const { previous, next } = neighbours(list.data.pagination);
  return (
    <div className="space-y-3">
      <Card className="overflow-hidden">
        <Table aria-label="Events">
          <TableHeader>
            <TableRow>
              <TableHead>Type</TableHead>
              <TableHead>Resource</TableHead>
              {showPolicy && <TableHead>Policy</TableHead>}
              <TableHead>Scope</TableHead>
              <TableHead>User</TableHead>
              <TableHead>Last seen</TableHead>
              {canDismiss && (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.data.items.map((item) => (
              <EventRow
                key={item.event?.entity?.id}
                item={item}
                canDismiss={canDismiss}
                showPolicy={showPolicy}
                onError={setError}
              />
            ))}
          </TableBody>
        </Table>
      </Card>
      <nav className="flex items-center justify-between gap-2 text-sm" aria-label="Event pages">
        <span className="text-muted-foreground tabular-nums">
          {list.data.pagination?.totalItems ?? 0} events
        </span>
        <div className="flex gap-2">
          <Button size="sm" variant="outline" disabled={!previous} onClick={() => setCursor(previous)}>
            Previous
          </Button>
          <Button size="sm" variant="outline" disabled={!next} onClick={() => setCursor(next)}>
            Next
          </Button>
        </div>
      </nav>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </div>
  );
}
