import type { ManagedBy } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type DeploymentBundle,
  DeploymentMode,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { LoaderIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ErrorDialog } from "@/components/error-dialog";
import { ImpactPreviewPanel } from "@/components/impact-preview/impact-preview-panel";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
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
import { describeError } from "@/lib/error-text";
import { managedByCodeNote } from "@/lib/managed-by-code";
import { bundlesQuery, deploymentsQuery, useDeleteBundle, useUpdateBundle } from "../api/policy-queries";
import { modeLabels } from "../bundle-status";
import { DeploymentStatusBadge } from "./deployment-status-badge";
import { ProductErrors } from "./product-errors";

function Deployments({ bundleId }: { bundleId: string }) {
  const list = useQuery(deploymentsQuery(bundleId));
  if (list.isPending) return <Skeleton className="h-16 w-full" />;
  if (list.isError) return <p className="text-sm text-destructive">{describeError(list.error).message}</p>;
  if (list.data.items.length === 0)
    return <p className="text-sm text-muted-foreground">No deployments yet.</p>;
  return (
    <Table aria-label="Deployments">
      <TableHeader>
        <TableRow>
          <TableHead>Scope</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Prevented</TableHead>
          <TableHead className="text-right">Drifts</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {list.data.items.map(({ deployment, preventionsCount, driftsCount }) => {
          if (!deployment) return null;
          return (
            <TableRow key={deployment.entity?.id} data-testid="deployment-row">
              <TableCell>
                <p className="font-medium">{deployment.scope?.name || deployment.scope?.externalId}</p>
                <p className="font-mono text-xs text-muted-foreground">{deployment.scope?.externalId}</p>
              </TableCell>
              <TableCell className="whitespace-normal">
                <DeploymentStatusBadge
                  status={deployment.status}
                  propagationEndsAt={deployment.propagationEndsAt}
                />
                <ProductErrors
                  codes={deployment.errorCode !== 0 ? [deployment.errorCode] : []}
                  label="Deployment error"
                  className="mt-1 text-xs"
                />
              </TableCell>
              <TableCell className="text-right tabular-nums">{preventionsCount}</TableCell>
              <TableCell className="text-right tabular-nums">{driftsCount}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function DeleteDialog({
  bundle,
  open,
  onOpenChange,
  onDeleted,
}: {
  bundle: DeploymentBundle;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => Promise<void>;
}) {
  const remove = useDeleteBundle();
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    try {
      await remove.mutateAsync({ id: bundle.entity?.id ?? "" });
      onOpenChange(false);
      await onDeleted();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent role="alertdialog">
          <DialogHeader>
            <DialogTitle>Delete {bundle.name}?</DialogTitle>
            <DialogDescription>
              The policy is removed from every scope it is deployed to, and its key {bundle.key} stops
              accepting waiver requests. Its past events stay available.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => void confirm()} disabled={remove.isPending}>
              {remove.isPending && <LoaderIcon className="animate-spin" />}
              Delete policy
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}

/** Where a bundle applied from a file comes from; the page's actions stay disabled. */
export function ManagedByCodeNote({ managedBy }: { managedBy: ManagedBy }) {
  return (
    <p
      role="note"
      data-testid="managed-by-code"
      className="rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground break-all"
    >
      {managedByCodeNote(managedBy)}
    </p>
  );
}

function BundleCard({
  bundle,
  current,
  canWrite,
}: {
  bundle: DeploymentBundle;
  current: boolean;
  canWrite: boolean;
}) {
  const navigate = useNavigate();
  const update = useUpdateBundle();
  const [error, setError] = useState<unknown>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmMode, setConfirmMode] = useState(false);
  const scopeCount = useQuery(deploymentsQuery(bundle.entity?.id ?? "")).data?.items.length;
  const id = bundle.entity?.id ?? "";
  // Applied from a file: changed in its repository, not here.
  const managed = bundle.managedBy !== undefined;
  const nextMode = bundle.mode === DeploymentMode.PREVENT ? DeploymentMode.ALERT : DeploymentMode.PREVENT;
  const switchMode = async () => {
    try {
      await update.mutateAsync({ id, mode: nextMode });
      setConfirmMode(false);
    } catch (e) {
      setConfirmMode(false);
      setError(e);
    }
  };
  return (
    <Card data-testid="bundle-card">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          {current ? (
            bundle.name
          ) : (
            <Link to="/policies/$policyId" params={{ policyId: id }} className="text-primary hover:underline">
              {bundle.name}
            </Link>
          )}
          <Badge variant="outline" className="font-mono">
            {bundle.key}
          </Badge>
          <Badge variant={bundle.mode === DeploymentMode.PREVENT ? "default" : "secondary"}>
            {modeLabels[bundle.mode]}
          </Badge>
          <DeploymentStatusBadge
            status={bundle.status}
            propagationEndsAt={bundle.propagationEndsAt}
            testId="bundle-status"
          />
        </CardTitle>
        {canWrite && (
          <div className="flex gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={update.isPending || managed}
              onClick={() => setConfirmMode(true)}
            >
              {update.isPending && <LoaderIcon className="animate-spin" />}
              Switch to {modeLabels[nextMode].toLowerCase()}
            </Button>
            <Button size="sm" variant="ghost" disabled={managed} onClick={() => setConfirmDelete(true)}>
              <Trash2Icon />
              Delete
            </Button>
          </div>
        )}
      </CardHeader>
      <CardContent className="space-y-2">
        {bundle.managedBy && <ManagedByCodeNote managedBy={bundle.managedBy} />}
        <ProductErrors codes={bundle.errorCodes} label="Bundle errors" className="text-sm" />
        {bundle.namespace && <p className="text-xs text-muted-foreground">Namespace {bundle.namespace}</p>}
        <Deployments bundleId={id} />
      </CardContent>
      <ConfirmDialog
        open={confirmMode}
        onOpenChange={setConfirmMode}
        title={`Switch ${bundle.name} to ${nextMode === DeploymentMode.PREVENT ? "PREVENT" : "ALERT"}?`}
        description={`${
          nextMode === DeploymentMode.PREVENT
            ? "Actions it matches will be denied"
            : "Actions it matches will be allowed and only reported as events"
        } in ${scopeCount === undefined ? "every scope it is deployed to" : `${scopeCount} ${scopeCount === 1 ? "scope" : "scopes"}`}.`}
        confirmLabel={`Switch to ${modeLabels[nextMode].toLowerCase()}`}
        onConfirm={() => void switchMode()}
        pending={update.isPending}
      >
        {nextMode === DeploymentMode.PREVENT && (
          <ImpactPreviewPanel
            autoStart
            className="max-h-[50vh] overflow-y-auto"
            request={{
              policySlug: bundle.policySlug,
              parameters: bundle.parameters,
              scopes: bundle.scopes,
              excludedScopes: bundle.excludedScopes,
            }}
          />
        )}
      </ConfirmDialog>
      <DeleteDialog
        bundle={bundle}
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        onDeleted={async () => {
          if (current) await navigate({ to: "/policies", search: { view: "deployed" } });
        }}
      />
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </Card>
  );
}

/** The tenant's deployments of one catalogue policy, the one on this page first. */
export function PolicyBundles({
  slug,
  currentId,
  canWrite,
}: {
  slug: string;
  currentId: string;
  canWrite: boolean;
}) {
  const list = useQuery(bundlesQuery(1, [slug]));
  if (list.isPending) return <Skeleton className="h-32 w-full" />;
  if (list.isError) return <p className="text-sm text-destructive">{describeError(list.error).message}</p>;
  const bundles = list.data.items
    .flatMap((item) => (item.bundle ? [item.bundle] : []))
    .sort((a, b) => Number(b.entity?.id === currentId) - Number(a.entity?.id === currentId));
  return (
    <section className="space-y-3">
      <h2 className="text-sm font-semibold">Deployments of this policy</h2>
      {bundles.map((bundle) => (
        <BundleCard
          key={bundle.entity?.id}
          bundle={bundle}
          current={bundle.entity?.id === currentId}
          canWrite={canWrite}
        />
      ))}
    </section>
  );
}
