import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { EventType, type PolicyEvent } from "@palisade/api/gen/palisade/event/v1/event_pb";
import type { EventFilterSchema } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ExternalLinkIcon, EyeIcon, EyeOffIcon, PanelRightOpenIcon } from "lucide-react";
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
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { safeUrl } from "@/lib/safe-url";
import {
  eventListQuery,
  resourceEventsQuery,
  useUpdateEvent,
  useUpdateResources,
} from "../api/event-queries";
import { eventTypeText, eventUserName, neighbours, type PageCursor } from "../event-filter";

/** A row of either view: a resource event (newest event, last seen, count) or one event. */
interface RowItem {
  event?: PolicyEvent;
  lastOccurredTime?: PolicyEvent["occurredTime"];
  isDismissed: boolean;
  eventCount?: number;
}

/** On a phone each row is a card: cells stack, each with its column's name. */
const cardCell = "max-md:block max-md:px-0 max-md:py-0.5";

function EventRow({
  item,
  canDismiss,
  showPolicy,
  perResource,
  onOpen,
  onError,
}: {
  item: RowItem;
  canDismiss: boolean;
  showPolicy: boolean;
  perResource: boolean;
  onOpen?: (eventId: string) => void;
  onError: (error: unknown) => void;
}) {
  const updateResources = useUpdateResources();
  const updateEvent = useUpdateEvent();
  // One row per resource dismisses all its events; in the every-event view, the one event.
  const update = perResource ? updateResources : updateEvent;
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
  const policyName = event.policyDeployment?.name ?? "";
  return (
    <TableRow
      data-testid="event-row"
      className="max-md:mb-3 max-md:block max-md:rounded-lg max-md:border max-md:bg-card max-md:p-3"
    >
      <TableCell className={cardCell}>
        <Badge variant={type.variant}>{type.label}</Badge>
        {item.isDismissed && (
          <Badge variant="outline" className="ml-1">
            Dismissed
          </Badge>
        )}
      </TableCell>
      <TableCell className={`max-w-xs whitespace-normal ${cardCell} max-md:max-w-none`}>
        <span className="flex min-w-0 items-center gap-1 font-medium break-all">
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
        <TableCell className={`max-w-[16rem] ${cardCell} max-md:max-w-none`}>
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
              className="block truncate text-primary hover:underline"
              title={policyName}
            >
              {policyName}
            </Link>
          ) : (
            <span className="block truncate" title={policyName}>
              {policyName}
            </span>
          )}
          <span className="block font-mono text-xs text-muted-foreground">{event.policyDeployment?.key}</span>
        </TableCell>
      )}
      <TableCell
        className={`max-w-[12rem] truncate ${cardCell} max-md:max-w-none`}
        title={event.resource?.scope?.externalId}
      >
        <span className="text-xs text-muted-foreground md:hidden">Scope: </span>
        {event.resource?.scope?.name || event.resource?.scope?.externalId}
      </TableCell>
      <TableCell
        className={`max-w-[12rem] truncate ${cardCell} max-md:max-w-none`}
        title={event.user?.identifier}
      >
        <span className="text-xs text-muted-foreground md:hidden">User: </span>
        {eventUserName(event.user)}
      </TableCell>
      {/* The date and its zone wrap on a desktop screen, so the row's actions stay in view. */}
      <TableCell className={`text-sm 2xl:whitespace-nowrap ${cardCell}`}>
        <span className="text-xs text-muted-foreground md:hidden">
          {perResource ? "Last seen: " : "When: "}
        </span>
        {time ? formatDateTime(timestampDate(time)) : "—"}
      </TableCell>
      {perResource && (
        <TableCell className={`tabular-nums md:text-right ${cardCell}`}>
          <span className="text-xs text-muted-foreground md:hidden">Events: </span>
          {item.eventCount ?? 1}
        </TableCell>
      )}
      {(canDismiss || onOpen) && (
        <TableCell className={`text-right ${cardCell} max-md:text-left`}>
          {/* Stacked below the widest screens, so the row fits beside the sidebar. */}
          <div className="flex flex-wrap justify-end gap-1 md:flex-col md:items-end 2xl:flex-row 2xl:flex-nowrap max-md:justify-start">
            {onOpen && (
              <Button size="sm" variant="ghost" onClick={() => onOpen(event.entity?.id ?? "")}>
                <PanelRightOpenIcon />
                Details
              </Button>
            )}
            {canDismiss && (
              <DismissButton
                isDismissed={item.isDismissed}
                pending={update.isPending}
                onToggle={() => (item.isDismissed ? void toggle() : setConfirmDismiss(true))}
              />
            )}
          </div>
          <ConfirmDialog
            open={confirmDismiss}
            onOpenChange={setConfirmDismiss}
            title="Dismiss this event?"
            description={
              perResource
                ? `Every event of ${event.resource?.name || event.resource?.details?.externalId || "this resource"} for this policy leaves the list; it comes back under the Dismissed filter.`
                : `This event of ${event.resource?.name || event.resource?.details?.externalId || "this resource"} is marked dismissed and no longer counts as open; it is listed under the Dismissed filter. The reason is kept in the audit log.`
            }
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

function DismissButton({
  isDismissed,
  pending,
  onToggle,
}: {
  isDismissed: boolean;
  pending: boolean;
  onToggle: () => void;
}) {
  return (
    <Button size="sm" variant="ghost" disabled={pending} onClick={onToggle}>
      {isDismissed ? <EyeIcon /> : <EyeOffIcon />}
      {isDismissed ? "Undismiss" : "Dismiss"}
    </Button>
  );
}

/** A stable text for a filter; timestamps hold bigints, which JSON cannot write. */
const filterKey = (filter: unknown) =>
  JSON.stringify(filter, (_key, value) => (typeof value === "bigint" ? value.toString() : value));

function useRows(
  filter: MessageInitShape<typeof EventFilterSchema>,
  perResource: boolean,
  cursor: PageCursor | undefined,
) {
  const resources = useQuery({ ...resourceEventsQuery(filter, cursor), enabled: perResource });
  const events = useQuery({ ...eventListQuery(filter, cursor), enabled: !perResource });
  const query = perResource ? resources : events;
  const items: RowItem[] | undefined = perResource
    ? resources.data?.items
    : events.data?.items.map((event) => ({ event, isDismissed: event.isDismissed }));
  return { query, items, pagination: query.data?.pagination };
}

/**
 * Events for a filter, newest first, a page at a time with previous / next: one row per
 * resource and policy (its newest event, when last seen, how many events), or every event.
 */
export function EventsTable({
  filter,
  showPolicy = true,
  perResource = true,
  onOpen,
  emptyTitle,
  emptyDescription,
}: {
  filter: MessageInitShape<typeof EventFilterSchema>;
  showPolicy?: boolean;
  perResource?: boolean;
  onOpen?: (eventId: string) => void;
  emptyTitle: string;
  emptyDescription: string;
}) {
  const permissions = usePermissions();
  const canDismiss = permissions.has(Permission.EVENTS_DISMISS);
  const [cursor, setCursor] = useState<PageCursor | undefined>(undefined);
  const [cursorFor, setCursorFor] = useState(filterKey({ filter, perResource }));
  // A new filter or view starts again at the newest events.
  if (cursorFor !== filterKey({ filter, perResource })) {
    setCursorFor(filterKey({ filter, perResource }));
    setCursor(undefined);
  }
  const [error, setError] = useState<unknown>(null);
  const { query, items, pagination } = useRows(filter, perResource, cursor);
  if (query.isPending || !items) {
    return (
      <div className="space-y-2" role="status" aria-label="Loading events">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <EmptyState
        image="table"
        title="Events could not be loaded"
        description={describeError(query.error).message}
        action={
          <Button variant="outline" onClick={() => void query.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (items.length === 0 && !cursor) {
    return <EmptyState image="table" title={emptyTitle} description={emptyDescription} />;
  }
  const { previous, next } = neighbours(pagination);
  const total = pagination?.totalItems ?? 0;
  return (
    <div className="min-w-0 space-y-3">
      <Card className="overflow-hidden max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <Table aria-label="Events" className="max-md:block">
          <TableHeader className="max-md:hidden">
            <TableRow>
              <TableHead>Type</TableHead>
              <TableHead>Resource</TableHead>
              {showPolicy && <TableHead>Policy</TableHead>}
              <TableHead>Scope</TableHead>
              <TableHead>User</TableHead>
              <TableHead>{perResource ? "Last seen" : "When"}</TableHead>
              {perResource && <TableHead className="text-right">Events</TableHead>}
              {(canDismiss || onOpen) && (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody className="max-md:block">
            {items.map((item) => (
              <EventRow
                key={item.event?.entity?.id}
                item={item}
                canDismiss={canDismiss}
                showPolicy={showPolicy}
                perResource={perResource}
                onOpen={onOpen}
                onError={setError}
              />
            ))}
          </TableBody>
        </Table>
      </Card>
      <nav className="flex items-center justify-between gap-2 text-sm" aria-label="Event pages">
        <span className="text-muted-foreground tabular-nums" data-testid="event-total">
          {total} {perResource ? (total === 1 ? "resource" : "resources") : total === 1 ? "event" : "events"}
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
