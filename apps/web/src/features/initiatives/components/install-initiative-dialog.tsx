import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { DeploymentMode } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import type { Initiative } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { scopeTypeLabels, TreeRow } from "@/components/tree-row";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
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
import { describeError } from "@/lib/error-text";
import { hierarchyQuery } from "@/lib/hierarchy-query";
import { useInstallInitiative } from "../api/initiative-queries";

const key = (node: { connectorId: string; externalId: string }) => `${node.connectorId}/${node.externalId}`;

function ScopeItem({
  node,
  depth,
  selected,
  onToggle,
}: {
  node: HierarchyNode;
  depth: number;
  selected: ReadonlyMap<string, HierarchyNode>;
  onToggle: (node: HierarchyNode) => void;
}) {
  return (
    <TreeRow
      node={node}
      depth={depth}
      renderChild={(child) => (
        <ScopeItem key={key(child)} node={child} depth={depth + 1} selected={selected} onToggle={onToggle} />
      )}
    >
      <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-sm">
        <input type="checkbox" checked={selected.has(key(node))} onChange={() => onToggle(node)} />
        <span className="truncate font-medium">{node.name}</span>
        <Badge variant="outline">{scopeTypeLabels[node.type]}</Badge>
      </label>
    </TreeRow>
  );
}

const providerNames: Partial<Record<CloudProvider, string>> = {
  [CloudProvider.AWS]: "AWS",
  [CloudProvider.AZURE]: "Azure",
};

/**
 * Installs an initiative: its policies (of one clause, or of every clause) as one bundle each on
 * the chosen scopes, in the chosen mode, after a confirmation. Calls `onStarted` with the install's
 * id so the page can show its progress.
 */
export function InstallInitiativeDialog({
  initiative,
  clause,
  open,
  onOpenChange,
  onStarted,
}: {
  initiative: Initiative;
  clause: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onStarted: (jobId: string, skipped: number) => void;
}) {
  const hierarchy = useQuery({ ...hierarchyQuery(), enabled: open });
  const [provider, setProvider] = useState<CloudProvider>(initiative.providers[0] ?? CloudProvider.AWS);
  const [scopes, setScopes] = useState<Map<string, HierarchyNode>>(new Map());
  const [mode, setMode] = useState<DeploymentMode>(DeploymentMode.ALERT);
  const [onlyClause, setOnlyClause] = useState(Boolean(clause));
  const [confirming, setConfirming] = useState(false);
  const install = useInstallInitiative();
  const toggle = (node: HierarchyNode) =>
    setScopes((previous) => {
      const next = new Map(previous);
      if (next.has(key(node))) next.delete(key(node));
      else next.set(key(node), node);
      return next;
    });
  const roots = (hierarchy.data?.roots ?? []).filter((root) => root.provider === provider);
  const chosen = [...scopes.values()];
  const modeName = mode === DeploymentMode.PREVENT ? "PREVENT" : "ALERT";
  const submit = async () => {
    try {
      // Awaited rather than passed as callbacks, so the outcome is handled even if the dialog
      // re-renders from scratch meanwhile.
      const response = await install.mutateAsync({
        slug: initiative.slug,
        scopes: chosen.map((node) => ({
          provider: node.provider,
          externalId: node.externalId,
          name: node.name,
          type: node.type,
          connectorId: node.connectorId,
        })),
        mode,
        clauseIds: onlyClause && clause ? [clause] : [],
      });
      setConfirming(false);
      onOpenChange(false);
      setScopes(new Map());
      onStarted(response.jobId, response.skipped.length);
    } catch {
      // Shown in the dialog from the mutation's error.
      setConfirming(false);
    }
  };
  // Each opening starts from the clause the page is showing.
  useEffect(() => {
    if (open) setOnlyClause(Boolean(clause));
  }, [open, clause]);
  return (
    <>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          // The confirmation opens over this dialog; a click in it must not close this one.
          if (!next && confirming) return;
          onOpenChange(next);
        }}
      >
        <DialogContent className="max-h-[90vh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>Install {initiative.name}</DialogTitle>
            <DialogDescription>
              One policy bundle per policy of the initiative, in the namespace {initiative.slug}. Policies
              already deployed to the chosen scopes are left as they are.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-4">
            {initiative.providers.length > 1 && (
              <fieldset className="space-y-1">
                <legend className="text-sm font-medium">Cloud</legend>
                <div className="flex gap-4">
                  {initiative.providers.map((p) => (
                    <label key={p} className="flex items-center gap-2 text-sm">
                      <input
                        type="radio"
                        name="install-provider"
                        checked={provider === p}
                        onChange={() => {
                          setProvider(p);
                          setScopes(new Map());
                        }}
                      />
                      {providerNames[p]}
                    </label>
                  ))}
                </div>
              </fieldset>
            )}
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium">Scopes</legend>
              {hierarchy.isPending ? (
                <Skeleton className="h-24 w-full" />
              ) : hierarchy.isError ? (
                <p className="text-sm text-destructive">{describeError(hierarchy.error).message}</p>
              ) : roots.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No synced {providerNames[provider]} scopes. Add a connector and sync its hierarchy on the
                  Connectors page.
                </p>
              ) : (
                <ul aria-label="Scopes" className="max-h-64 space-y-0.5 overflow-auto rounded-md border p-2">
                  {roots.map((root) => (
                    <ScopeItem key={key(root)} node={root} depth={0} selected={scopes} onToggle={toggle} />
                  ))}
                </ul>
              )}
            </fieldset>
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium">Mode</legend>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="install-mode"
                  checked={mode === DeploymentMode.ALERT}
                  onChange={() => setMode(DeploymentMode.ALERT)}
                />
                <span>
                  Alert <span className="text-muted-foreground">— records what the policies would deny</span>
                </span>
              </label>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="install-mode"
                  checked={mode === DeploymentMode.PREVENT}
                  onChange={() => setMode(DeploymentMode.PREVENT)}
                />
                <span>
                  Prevent <span className="text-muted-foreground">— the cloud denies what they forbid</span>
                </span>
              </label>
            </fieldset>
            {clause && (
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={onlyClause}
                  onChange={(e) => setOnlyClause(e.target.checked)}
                />
                Only the policies of clause {clause}
              </label>
            )}
            {install.isError && (
              <p className="text-sm text-destructive" role="alert">
                {describeError(install.error).message}
              </p>
            )}
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
              Review install
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Install ${initiative.name} in ${modeName} mode?`}
        description={
          <>
            Palisade creates a bundle for every {providerNames[provider]} policy of{" "}
            {onlyClause && clause ? `clause ${clause}` : "the initiative"} that is not yet deployed to{" "}
            {chosen.map((node) => node.name).join(", ")}.{" "}
            {mode === DeploymentMode.PREVENT
              ? "As soon as each one is deployed, the cloud denies what it forbids."
              : "Nothing is denied; what the policies would deny is recorded as alerts."}
          </>
        }
        confirmLabel="Install"
        pending={install.isPending}
        onConfirm={() => void submit()}
      />
    </>
  );
}
