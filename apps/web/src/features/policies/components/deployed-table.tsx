import type { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { EmptyState } from "@/components/empty-state";
import { PagePagination } from "@/components/page-pagination";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { describeError } from "@/lib/error-text";
import { bundlesQuery } from "../api/policy-queries";
import { modeLabels } from "../bundle-status";
import { totalPagesOf } from "../catalogue-filters";
import { DeploymentStatusBadge } from "./deployment-status-badge";

export function DeployedTable({
  page,
  mode,
  onPage,
}: {
  page: number;
  /** Only the policies in this mode, when the address asks for one. */
  mode?: DeploymentMode;
  onPage: (page: number) => void;
}) {
  const list = useQuery(bundlesQuery(page, [], mode ? [mode] : []));
  return (
    <div className="space-y-4">
      <Card className="overflow-hidden">
        {list.isPending ? (
          <div className="space-y-2 p-4" role="status" aria-label="Loading deployed policies">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : list.isError ? (
          <EmptyState
            image="list"
            className="rounded-none border-0"
            title="Deployed policies could not be loaded"
            description={describeError(list.error).message}
            action={
              <Button variant="outline" onClick={() => void list.refetch()}>
                Try again
              </Button>
            }
          />
        ) : list.data.items.length === 0 ? (
          <EmptyState
            image="list"
            className="rounded-none border-0"
            title="No policies deployed yet"
            description="Deploy a policy from the catalogue, a recommendation or an initiative; its deployments, key and counts will be listed here."
          />
        ) : (
          <Table aria-label="Deployed policies" stackOnPhone>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Mode</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Scopes</TableHead>
                <TableHead className="text-right">Prevented</TableHead>
                <TableHead className="text-right">Drifts</TableHead>
                <TableHead className="text-right">Waivers</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.data.items.map(
                ({ bundle, preventionsCount, driftsCount, waiversCount, activeWaiversCount }) => {
                  if (!bundle) return null;
                  return (
                    <TableRow key={bundle.entity?.id} data-testid="bundle-row">
                      <TableCell label="Name" className="max-w-xs">
                        <Link
                          to="/policies/$policyId"
                          params={{ policyId: bundle.entity?.id ?? bundle.key }}
                          className="block truncate font-medium text-primary hover:underline"
                          title={bundle.name}
                        >
                          {bundle.name}
                        </Link>
                        <p className="font-mono text-xs text-muted-foreground">{bundle.policySlug}</p>
                      </TableCell>
                      <TableCell label="Key" className="font-mono">
                        {bundle.key}
                      </TableCell>
                      <TableCell label="Mode">{modeLabels[bundle.mode]}</TableCell>
                      <TableCell label="Status">
                        <DeploymentStatusBadge
                          status={bundle.status}
                          propagationEndsAt={bundle.propagationEndsAt}
                        />
                      </TableCell>
                      <TableCell
                        label="Scopes"
                        className="max-w-xs truncate"
                        title={bundle.scopes
                          .map((s) => `${s.name || s.externalId} (${s.externalId})`)
                          .join("\n")}
                      >
                        {bundle.scopes.map((s) => s.name || s.externalId).join(", ")}
                      </TableCell>
                      <TableCell label="Prevented" className="text-right tabular-nums">
                        {preventionsCount}
                      </TableCell>
                      <TableCell label="Drifts" className="text-right tabular-nums">
                        {driftsCount}
                      </TableCell>
                      <TableCell label="Waivers" className="text-right tabular-nums">
                        {activeWaiversCount}/{waiversCount}
                      </TableCell>
                    </TableRow>
                  );
                },
              )}
            </TableBody>
          </Table>
        )}
      </Card>
      {list.data && (
        <PagePagination page={page} totalPages={totalPagesOf(list.data.pagination)} onPage={onPage} />
      )}
    </div>
  );
}
