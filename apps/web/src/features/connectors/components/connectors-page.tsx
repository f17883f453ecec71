import { timestampDate } from "@bufbuild/protobuf/wkt";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { type Connector, ConnectorStatus } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import type { TestConnectorResponse } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderIcon, PlugZapIcon, RefreshCwIcon, Trash2Icon } from "lucide-react";
import { useEffect, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { ErrorDialog } from "@/components/error-dialog";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { connectorsQuery } from "@/lib/connectors-query";
import { formatDateTime } from "@/lib/date-time";
import { hierarchyQuery } from "@/lib/hierarchy-query";
import { Permission, usePermissions } from "@/lib/permissions";
import { useDeleteConnector, useSyncHierarchy, useTestConnector } from "../api/connector-queries";
import { AddConnectorDialog } from "./add-connector-dialog";
import { ConnectionChecks, PolicyTypeStatuses } from "./connection-checks";
import { HierarchyTree } from "./hierarchy-tree";
import { PolicySpace } from "./policy-space";
import { QuotaDialog } from "./quota-dialog";

const STATUS: Record<
  ConnectorStatus,
  { label: string; variant: "success" | "destructive" | "secondary" | "warning" }
> = {
  [ConnectorStatus.UNSPECIFIED]: { label: "Unknown", variant: "secondary" },
  [ConnectorStatus.CONNECTED]: { label: "Connected", variant: "success" },
  [ConnectorStatus.ERROR]: { label: "Error", variant: "destructive" },
  [ConnectorStatus.SYNCING]: { label: "Syncing", variant: "warning" },
  [ConnectorStatus.NEVER_SYNCED]: { label: "Never synced", variant: "secondary" },
};

function kindLabel(connector: Connector): string {
  const provider = connector.provider === CloudProvider.AWS ? "AWS" : "Azure";
  return connector.config?.kind.case === "sandbox" ? `${provider} · sandbox` : provider;
}

/** Where an AWS connector's events come from; LookupEvents is named for what it cannot see. */
function eventsSource(connector: Connector): string {
  const kind = connector.config?.kind;
  if (kind?.case !== "aws") return "";
  const trail = kind.value.trail;
  return trail
    ? `Events: organisation trail s3://${trail.bucket}/${trail.keyPrefix}`
    : "Events: LookupEvents, management account only";
}

function lastSync(connector: Connector): string {
  return connector.lastSyncAt ? formatDateTime(timestampDate(connector.lastSyncAt)) : "Never";
}

function TestResultDialog({
  result,
  name,
  onClose,
}: {
  result: TestConnectorResponse | null;
  name: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={result !== null} onOpenChange={(next) => !next && onClose()}>
      {/* The checks and the policy types outgrow a short screen: the dialog scrolls. */}
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{result?.ok ? "Connection works" : "Connection failed"}</DialogTitle>
          <DialogDescription>
            {result?.ok
              ? `Palisade can read and change what it needs through ${name}.`
              : `Fix the first failed step for ${name}, then test again.`}
          </DialogDescription>
        </DialogHeader>
        {result && <ConnectionChecks checks={result.checks} />}
        {result && <PolicyTypeStatuses types={result.policyTypes} />}
        <DialogFooter>
          <DialogClose asChild>
            <Button>OK</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RemoveDialog({ connector, onClose }: { connector: Connector | null; onClose: () => void }) {
  const remove = useDeleteConnector();
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    if (!connector) return;
    try {
      await remove.mutateAsync({ id: connector.entity?.id ?? "" });
      onClose();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <Dialog open={connector !== null} onOpenChange={(next) => !next && onClose()}>
        <DialogContent role="alertdialog">
          <DialogHeader>
            <DialogTitle>Remove {connector?.name}?</DialogTitle>
            <DialogDescription>
              Palisade forgets this connector: its stored credentials and its synced hierarchy are deleted,
              and its scopes can no longer be chosen for deployments. Nothing in the cloud changes, and a
              connector that deployments still use cannot be removed.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
              {remove.isPending && <LoaderIcon className="animate-spin" />}
              Remove connector
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}

function ConnectorRow({
  connector,
  canWrite,
  onTested,
  onRemove,
  onError,
}: {
  connector: Connector;
  canWrite: boolean;
  onTested: (result: TestConnectorResponse, name: string) => void;
  onRemove: (connector: Connector) => void;
  onError: (error: unknown) => void;
}) {
  const test = useTestConnector();
  const sync = useSyncHierarchy();
  const id = connector.entity?.id ?? "";
  const status = STATUS[connector.status];
  const syncing = connector.status === ConnectorStatus.SYNCING || sync.isPending;
  const runTest = async () => {
    try {
      const result = await test.mutateAsync({ target: { case: "id", value: id } });
      onTested(result, connector.name);
    } catch (e) {
      onError(e);
    }
  };
  const runSync = async () => {
    try {
      await sync.mutateAsync({ id });
    } catch (e) {
      onError(e);
    }
  };
  return (
    <TableRow data-testid="connector-row">
      <TableCell label="Name" className="font-medium">
        {connector.name}
      </TableCell>
      <TableCell label="Provider">
        <div>{kindLabel(connector)}</div>
        {eventsSource(connector) && (
          <p className="text-xs text-muted-foreground">{eventsSource(connector)}</p>
        )}
      </TableCell>
      <TableCell label="Status">
        <div className="space-y-1">
          <Badge variant={status.variant}>{status.label}</Badge>
          {connector.lastError && <p className="max-w-xs text-xs text-destructive">{connector.lastError}</p>}
          {connector.eventsError && (
            <p
              data-testid="connector-events-error"
              className="max-w-xs whitespace-pre-line text-xs text-destructive"
            >
              {connector.eventsError}
            </p>
          )}
        </div>
      </TableCell>
      <TableCell label="Last sync" className="text-sm text-muted-foreground">
        {lastSync(connector)}
      </TableCell>
      {canWrite && (
        <TableCell label="Actions">
          <div className="flex flex-wrap justify-end gap-2">
            <Button size="sm" variant="outline" onClick={runTest} disabled={test.isPending}>
              {test.isPending ? <LoaderIcon className="animate-spin" /> : <PlugZapIcon />}
              Test
            </Button>
            <QuotaDialog connector={connector} />
            <Button size="sm" variant="outline" onClick={runSync} disabled={syncing}>
              <RefreshCwIcon className={syncing ? "animate-spin" : undefined} />
              Sync now
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onRemove(connector)}
              aria-label={`Remove ${connector.name}`}
            >
              <Trash2Icon />
            </Button>
          </div>
        </TableCell>
      )}
    </TableRow>
  );
}

export function ConnectorsPage() {
  const permissions = usePermissions();
  const canWrite = permissions.has(Permission.CONNECTORS_WRITE);
  const queryClient = useQueryClient();
  const connectors = useQuery(connectorsQuery());
  const items = connectors.data?.items ?? [];
  // The tree is read again whenever a sync finishes (the list's sync times change).
  const syncedAt = items.map((c) => `${c.entity?.id}:${c.lastSyncAt?.seconds ?? ""}`).join(",");
  const hierarchy = useQuery(hierarchyQuery());
  useEffect(() => {
    if (syncedAt) void queryClient.invalidateQueries({ queryKey: hierarchyQuery().queryKey });
  }, [syncedAt, queryClient]);
  const [tested, setTested] = useState<{ result: TestConnectorResponse; name: string } | null>(null);
  const [removing, setRemoving] = useState<Connector | null>(null);
  const [error, setError] = useState<unknown>(null);

  const roots = hierarchy.data?.roots ?? [];
  return (
    <>
      <PageHeader
        title="Connectors"
        description="Connections to your AWS organisations, Azure tenants and the sandbox cloud. Palisade reads the cloud hierarchy through them and deploys guardrails to the scopes you choose."
        actions={canWrite ? <AddConnectorDialog /> : undefined}
      />
      {connectors.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : connectors.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {String(connectors.error.message)}
        </p>
      ) : items.length === 0 ? (
        <EmptyState
          image="list"
          title="No connectors yet"
          description="Add an AWS, Azure or sandbox connector to see your cloud hierarchy."
        />
      ) : (
        <div className="space-y-6">
          <Card>
            <CardContent className="p-0">
              <Table stackOnPhone>
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Provider</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Last sync</TableHead>
                    {canWrite && <TableHead className="text-right">Actions</TableHead>}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {items.map((connector) => (
                    <ConnectorRow
                      key={connector.entity?.id}
                      connector={connector}
                      canWrite={canWrite}
                      onTested={(result, name) => setTested({ result, name })}
                      onRemove={setRemoving}
                      onError={setError}
                    />
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
          {items.map((connector) => {
            const mine = roots.filter((r) => r.connectorId === connector.entity?.id);
            return (
              <Card key={connector.entity?.id}>
                <CardHeader>
                  <CardTitle>{connector.name}</CardTitle>
                  <CardDescription>Hierarchy as of the last sync ({lastSync(connector)}).</CardDescription>
                </CardHeader>
                <CardContent className="space-y-4">
                  {connector.provider === CloudProvider.AWS && connector.entity?.id && (
                    <PolicySpace connectorId={connector.entity.id} />
                  )}
                  {mine.length > 0 ? (
                    <HierarchyTree roots={mine} label={`${connector.name} hierarchy`} />
                  ) : (
                    <p className="text-sm text-muted-foreground">
                      {connector.status === ConnectorStatus.SYNCING
                        ? "Syncing…"
                        : "Not synced yet. Use Sync now to read it."}
                    </p>
                  )}
                </CardContent>
              </Card>
            );
          })}
        </div>
      )}
      <TestResultDialog
        result={tested?.result ?? null}
        name={tested?.name ?? ""}
        onClose={() => setTested(null)}
      />
      <RemoveDialog connector={removing} onClose={() => setRemoving(null)} />
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}
