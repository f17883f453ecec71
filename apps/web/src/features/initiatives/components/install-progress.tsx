import { DeploymentStatus } from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { describeError } from "@/lib/error-text";
import { installProgressQuery, useRefreshAfterInstall } from "../api/initiative-queries";

const statusBadges: Partial<
  Record<DeploymentStatus, { label: string; variant: "success" | "destructive" | "warning"; title?: string }>
> = {
  [DeploymentStatus.DEPLOYED]: { label: "Deployed", variant: "success" },
  [DeploymentStatus.FAILED]: { label: "Failed", variant: "destructive" },
  [DeploymentStatus.PROPAGATING]: {
    label: "Propagating",
    variant: "warning",
    title: "Written to Azure, which applies new assignments within minutes; not enforced yet.",
  },
};

/** How far an initiative install is: each bundle it created and its deployment. */
export function InstallProgress({ jobId }: { jobId: string }) {
  const progress = useQuery(installProgressQuery(jobId));
  const refresh = useRefreshAfterInstall();
  const finished = progress.data?.finished ?? false;
  useEffect(() => {
    if (finished) void refresh();
  }, [finished, refresh]);
  if (progress.isPending) return <Skeleton className="h-24 w-full" />;
  if (progress.isError)
    return <p className="text-sm text-destructive">{describeError(progress.error).message}</p>;
  const { total, deployed, failed, bundles } = progress.data;
  const done = deployed + failed;
  const percent = total === 0 ? 100 : Math.round((done * 100) / total);
  const started = progress.data.startedAt ? Number(progress.data.startedAt.seconds) * 1000 : undefined;
  const ended = progress.data.finishedAt ? Number(progress.data.finishedAt.seconds) * 1000 : undefined;
  return (
    <Card className="space-y-3 p-4" data-testid="install-progress">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-medium">
          {finished
            ? failed > 0
              ? `Install finished: ${deployed} of ${total} policies deployed, ${failed} failed`
              : `Install finished: all ${total} policies deployed`
            : `Installing ${total} policies: ${deployed} deployed${failed > 0 ? `, ${failed} failed` : ""}`}
        </h2>
        {finished && started !== undefined && ended !== undefined && (
          <span className="text-xs text-muted-foreground tabular-nums">
            in {Math.max(0, Math.round((ended - started) / 1000))} s
          </span>
        )}
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Policies deployed"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
      </div>
      {total === 0 ? (
        <p className="text-sm text-muted-foreground">Every policy was already deployed to these scopes.</p>
      ) : (
        <ul className="max-h-72 space-y-1 overflow-auto text-sm" aria-label="Bundles of the install">
          {bundles.map((bundle) => {
            const badge = statusBadges[bundle.status];
            return (
              <li
                key={bundle.bundleId}
                className="flex flex-wrap items-center gap-2"
                data-testid="install-bundle"
              >
                <Link
                  to="/policies/$policyId"
                  params={{ policyId: bundle.bundleId }}
                  className="min-w-0 flex-1 truncate underline-offset-2 hover:underline"
                >
                  {bundle.name}
                </Link>
                <span className="font-mono text-xs text-muted-foreground">{bundle.key}</span>
                {badge ? (
                  <Badge variant={badge.variant} title={badge.title}>
                    {badge.label}
                  </Badge>
                ) : (
                  <Badge variant="secondary">Deploying</Badge>
                )}
                {bundle.errorMessage && (
                  <p className="w-full text-xs text-destructive">{bundle.errorMessage}</p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
