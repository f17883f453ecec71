import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { PolicyEvent } from "@palisade/api/gen/palisade/event/v1/event_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import { hierarchyQuery } from "@/lib/hierarchy-query";
import { scopeName, scopeNamesOf } from "@/lib/scope-names";
import { eventQuery } from "../api/event-queries";
import { accountOf, denyMessageOf, readableRaw } from "../event-detail";
import { eventTypeText, eventUserName } from "../event-filter";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[9rem_1fr] sm:gap-3">
      <dt className="text-xs font-medium text-muted-foreground sm:pt-0.5">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

function EventDetail({ event }: { event: PolicyEvent }) {
  const hierarchy = useQuery(hierarchyQuery());
  const names = scopeNamesOf(hierarchy.data?.roots ?? []);
  const audit = event.audits[0];
  const scope = event.resource?.scope?.externalId ?? "";
  const account = accountOf(scope);
  const deny = denyMessageOf(audit?.raw);
  const key = event.policyDeployment?.key ?? "";
  const type = eventTypeText[event.type];
  return (
    <div className="space-y-5">
      <dl className="space-y-3">
        <Field label="Type">
          <Badge variant={type.variant}>{type.label}</Badge>
        </Field>
        <Field label="Action">
          <code className="font-mono text-xs">{audit?.action || "—"}</code>
        </Field>
        <Field label="Resource">
          {event.resource?.name || "—"}
          <span className="block font-mono text-xs text-muted-foreground">
            {event.resource?.details?.externalId}
          </span>
        </Field>
        <Field label="Principal">
          {eventUserName(event.user)}
          {event.user?.identifier && event.user.identifier !== eventUserName(event.user) && (
            <span className="block font-mono text-xs text-muted-foreground">{event.user.identifier}</span>
          )}
        </Field>
        <Field label={account.startsWith("/") ? "Subscription" : "Account"}>
          {account ? <span title={account}>{scopeName(names, account)}</span> : "—"}
        </Field>
        {scope && scope !== account && (
          <Field label="Scope">
            <span title={scope}>{event.resource?.scope?.name || scopeName(names, scope)}</span>
          </Field>
        )}
        <Field label="Policy">
          {event.policyDeployment?.bundleId ? (
            <Link
              to="/policies/$policyId"
              params={{ policyId: event.policyDeployment.bundleId }}
              className="text-primary hover:underline"
            >
              {event.policyDeployment.name}
            </Link>
          ) : (
            event.policyDeployment?.name || "—"
          )}
          {key && <span className="ml-2 font-mono text-xs text-muted-foreground">key {key}</span>}
        </Field>
        <Field label="When">
          {event.occurredTime ? formatDateTime(timestampDate(event.occurredTime)) : "—"}
        </Field>
        {deny && (
          <Field label="Deny message">
            <p className="rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{deny}</p>
          </Field>
        )}
      </dl>
      {key && (
        <Button asChild>
          <a href={`/req?k=${encodeURIComponent(key)}`}>Request a waiver</a>
        </Button>
      )}
      <section className="space-y-2">
        <h3 className="text-sm font-semibold">Audit record</h3>
        <pre
          className="max-h-96 overflow-auto rounded-md border bg-muted p-3 font-mono text-xs"
          data-testid="raw-audit-record"
        >
          {readableRaw(audit?.raw)}
        </pre>
      </section>
    </div>
  );
}

/** The side sheet of one event: what happened, to what, by whom, under which policy, and the cloud's record. */
export function EventDrawer({ eventId, onClose }: { eventId: string | undefined; onClose: () => void }) {
  const event = useQuery({ ...eventQuery(eventId ?? ""), enabled: !!eventId });
  return (
    <Sheet open={!!eventId} onOpenChange={(open) => !open && onClose()}>
      <SheetContent aria-describedby={undefined}>
        <SheetTitle>Event</SheetTitle>
        <SheetDescription className="sr-only">The event's details and its audit record</SheetDescription>
        {event.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading the event">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        ) : event.isError ? (
          <p className="text-sm text-destructive">{describeError(event.error).message}</p>
        ) : event.data.event ? (
          <EventDetail event={event.data.event} />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
