import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Waiver, WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CloudName } from "@/components/cloud-name";
import { EmptyState } from "@/components/empty-state";
import { ErrorDialog } from "@/components/error-dialog";
import { PagePagination } from "@/components/page-pagination";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { currentTenantQuery } from "@/lib/current-tenant";
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import { hierarchyQuery } from "@/lib/hierarchy-query";
import { Permission, usePermissions } from "@/lib/permissions";
import { cloudDisplayName, scopeNamesOf } from "@/lib/scope-names";
import {
  EXPIRING_SOON_HOURS,
  policyBundleQuery,
  policyWaiverSummaryQuery,
  policyWaiversQuery,
  useCancelWaiver,
  useUpdateWaiver,
} from "../api/policy-waiver-queries";
import {
  formatDuration,
  requestedBy,
  type WaiverRowGrants,
  waiverActions,
  waiverEndOf,
  waiverStatusLabel,
  waiverTargetOf,
} from "../waiver-row";
import { WaiverAnalyticsCard } from "./waiver-analytics-card";
import { type Decision, WaiverRowActions } from "./waiver-row-actions";

const summaryCounts = [
  ["total", "Total"],
  ["active", "Active"],
  ["propagating", "Propagating"],
  ["pending", "Pending"],
  ["rejected", "Rejected"],
  ["cancelled", "Cancelled"],
  ["expired", "Expired"],
] as const;

function WaiverSummary({ policyKey }: { policyKey: string }) {
  const summary = useQuery(policyWaiverSummaryQuery(policyKey));
  return (
    <dl className="grid grid-cols-3 gap-3 sm:grid-cols-7" aria-label="Waiver counts">
      {summaryCounts.map(([field, label]) => (
        <Card key={field} className="py-3">
          <CardContent className="px-4">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums">
              {summary.data ? summary.data[field] : <Skeleton className="mt-1 h-7 w-8" />}
            </dd>
          </CardContent>
        </Card>
      ))}
    </dl>
  );
}

function WaiverRow({
  waiver,
  grants,
  scopeNames,
  onError,
}: {
  waiver: Waiver;
  grants: WaiverRowGrants;
  /** Scope names by external id: the scope shows by name, its id on hover. */
  scopeNames: ReadonlyMap<string, string>;
  onError: (error: unknown) => void;
}) {
  const update = useUpdateWaiver();
  const cancel = useCancelWaiver();
  const id = waiver.entity?.id ?? "";
  const row = {
    status: waiver.status,
    deploymentStatus: waiver.deploymentStatus,
    hasExpiry: !!waiver.expiresAt,
    propagationEndsAt: waiver.propagationEndsAt ? timestampDate(waiver.propagationEndsAt) : undefined,
    managedBy: waiver.managedBy,
  };
  const actions = waiverActions(row, grants);
  const status = waiverStatusLabel(row);
  const target = waiverTargetOf(waiver, scopeNames);
  const ended = waiverEndOf(waiver);
  const run = async (change: () => Promise<unknown>) => {
    try {
      await change();
    } catch (error) {
      onError(error);
    }
  };
  const decide = (decision: Decision) =>
    run(() =>
      decision === "cancel"
        ? cancel.mutateAsync({ target: { case: "id", value: id } })
        : update.mutateAsync({
            id,
            status: decision === "approve" ? WaiverStatus.ACTIVE : WaiverStatus.REJECTED,
          }),
    );
  return (
    <TableRow data-testid="waiver-row">
      <TableCell label="Status">
        <Badge variant={status.variant} title={status.hint}>
          {status.label}
        </Badge>
        {target && (
          <p className="mt-1 max-w-[14rem] truncate text-xs text-muted-foreground">
            <CloudName name={target.name} id={target.id} />
          </p>
        )}
      </TableCell>
      <TableCell label="Requester">
        <p className="font-medium">{waiver.requester?.name}</p>
        <p className="text-xs text-muted-foreground">{waiver.requester?.identifier}</p>
      </TableCell>
      <TableCell label="Comment" className="min-w-[12rem] max-w-xs whitespace-normal break-words">
        {waiver.requester?.comment}
      </TableCell>
      <TableCell label="Duration" className="tabular-nums">
        {formatDuration(waiver.duration)}
      </TableCell>
      <TableCell label="Ends" className="text-sm">
        {ended ? (
          <>
            <p>{ended.label}</p>
            <p className="text-xs text-muted-foreground">{formatDateTime(ended.at)}</p>
          </>
        ) : (
          "—"
        )}
      </TableCell>
      <TableCell label="Reviewer" className="text-sm">
        {waiver.reviewer ? (
          <>
            <p>{waiver.reviewer.name}</p>
            {waiver.reviewedAt && (
              <p className="text-xs text-muted-foreground">
                {formatDateTime(timestampDate(waiver.reviewedAt))}
              </p>
            )}
          </>
        ) : (
          "—"
        )}
      </TableCell>
      {(grants.canUpdate || grants.canWrite) && (
        <TableCell label="Actions">
          <WaiverRowActions
            actions={actions}
            busy={{ update: update.isPending, cancel: cancel.isPending }}
            subject={{
              requesterName: waiver.requester?.name ?? "",
              policyKey: waiver.policyKey,
              targetName: target ? cloudDisplayName(target.name, target.id).text : "",
              durationSeconds: waiver.duration,
              active: waiver.status === WaiverStatus.ACTIVE,
            }}
            onDecide={(decision) => void decide(decision)}
          />
        </TableCell>
      )}
    </TableRow>
  );
}

function WaiverList({ policyKey }: { policyKey: string }) {
  const permissions = usePermissions();
  const current = useQuery(currentTenantQuery()).data;
  const caller = { id: current?.user?.id ?? "", email: current?.user?.email ?? "" };
  const separateApprover = current?.tenant?.settings?.requireSeparateApprover ?? true;
  const grants = {
    canUpdate: permissions.has(Permission.WAIVERS_UPDATE),
    canWrite: permissions.has(Permission.WAIVERS_WRITE),
  };
  // The server refuses a decision on one's own request when the tenant requires a separate approver.
  const grantsFor = (waiver: Waiver): WaiverRowGrants => ({
    ...grants,
    ownRequestNeedsOtherApprover: separateApprover && requestedBy(waiver.requester?.identifier, caller),
  });
  const [page, setPage] = useState(1);
  const [expiringSoon, setExpiringSoon] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const list = useQuery(policyWaiversQuery(policyKey, page, expiringSoon));
  const hierarchy = useQuery({ ...hierarchyQuery(), enabled: permissions.has(Permission.CONNECTORS_READ) });
  const scopeNames = scopeNamesOf(hierarchy.data?.roots ?? []);
  const views = (
    <fieldset className="flex flex-wrap gap-2" aria-label="Waiver view">
      {([false, true] as const).map((soon) => (
        <Button
          key={String(soon)}
          size="sm"
          variant={expiringSoon === soon ? "secondary" : "ghost"}
          aria-pressed={expiringSoon === soon}
          onClick={() => {
            setExpiringSoon(soon);
            setPage(1);
          }}
        >
          {soon ? `Expiring soon (${EXPIRING_SOON_HOURS} h)` : "All waivers"}
        </Button>
      ))}
    </fieldset>
  );
  if (list.isPending) return <Skeleton className="h-40 w-full" />;
  if (list.isError) return <p className="text-sm text-destructive">{describeError(list.error).message}</p>;
  if (list.data.items.length === 0 && page === 1) {
    return (
      <div className="space-y-3">
        {views}
        <EmptyState
          image="table"
          title={expiringSoon ? "No waiver ends soon" : "No waivers for this policy"}
          description={
            expiringSoon
              ? `No active waiver of ${policyKey} ends within ${EXPIRING_SOON_HOURS} hours.`
              : `Waivers requested with key ${policyKey} are listed here with their status and expiry.`
          }
        />
      </div>
    );
  }
  const position = list.data.pagination?.position;
  const totalPages = position?.case === "totalPages" ? position.value : 1;
  return (
    <div className="space-y-3">
      {views}
      <Table stackOnPhone>
        <TableHeader>
          <TableRow>
            <TableHead>Status</TableHead>
            <TableHead>Requester</TableHead>
            <TableHead>Comment</TableHead>
            <TableHead>Duration</TableHead>
            <TableHead>Ends</TableHead>
            <TableHead>Reviewer</TableHead>
            {(grants.canUpdate || grants.canWrite) && (
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody>
          {list.data.items.map((waiver) => (
            <WaiverRow
              key={waiver.entity?.id}
              waiver={waiver}
              grants={grantsFor(waiver)}
              scopeNames={scopeNames}
              onError={setError}
            />
          ))}
        </TableBody>
      </Table>
      <PagePagination page={page} totalPages={totalPages} onPage={setPage} />
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </div>
  );
}

/** The waivers tab of a policy: the counts, then every waiver of its key with the actions the user may take. */
export function PolicyWaiversTab({ policyId }: { policyId: string }) {
  const bundle = useQuery(policyBundleQuery(policyId));
  if (bundle.isPending) return <Skeleton className="h-40 w-full" />;
  const key = bundle.data?.bundle?.bundle?.key;
  if (bundle.isError || !key) {
    return (
      <EmptyState
        image="table"
        title="No waivers for this policy"
        description={
          bundle.isError
            ? describeError(bundle.error).message
            : "This policy has no key to request waivers with."
        }
      />
    );
  }
  return (
    <div className="space-y-4">
      <WaiverSummary policyKey={key} />
      <WaiverList policyKey={key} />
      <WaiverAnalyticsCard bundleId={bundle.data?.bundle?.bundle?.entity?.id ?? policyId} />
    </div>
  );
}
