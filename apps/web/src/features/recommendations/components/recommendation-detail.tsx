import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Recommendation } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArchiveIcon, ArchiveRestoreIcon, RocketIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { ErrorDialog } from "@/components/error-dialog";
import { ImpactPreviewPanel } from "@/components/impact-preview/impact-preview-panel";
import { MarkdownText } from "@/components/markdown-text";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import {
  recommendationQuery,
  useArchiveRecommendation,
  useUnarchiveRecommendation,
} from "../api/recommendation-queries";
import { installSearch, kindLabel, modeLabel, providerLabel } from "./recommendation-labels";

/**
 * What the recommendation's policies would have denied on its suggested scopes over the last
 * 30 days, one preview per policy (with its default parameters), started when the detail opens.
 */
export function RecommendationImpactPreview({
  recommendation,
}: {
  recommendation: Recommendation;
}): ReactNode {
  const scopes = recommendation.suggestedScopes.map(({ provider, type, externalId, name, connectorId }) => ({
    provider,
    type,
    externalId,
    name,
    connectorId,
  }));
  if (recommendation.archived || recommendation.policySlugs.length === 0) return null;
  return (
    <div className="space-y-3">
      {recommendation.policySlugs.slice(0, MAX_PREVIEWS).map((policySlug) => (
        <ImpactPreviewPanel
          key={policySlug}
          autoStart
          request={scopes.length > 0 ? { policySlug, scopes } : undefined}
          missing="This recommendation suggests no scope; choose scopes on the deploy form to preview its impact."
        />
      ))}
    </div>
  );
}

/** Previews started at once when a recommendation opens; more are one click away on the deploy form. */
const MAX_PREVIEWS = 3;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function Detail({ recommendation, onClose }: { recommendation: Recommendation; onClose: () => void }) {
  const permissions = usePermissions();
  const archive = useArchiveRecommendation();
  const unarchive = useUnarchiveRecommendation();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = recommendation.entity?.id ?? "";
  const updated = recommendation.entity?.updatedAt;
  const created = recommendation.entity?.createdAt;
  const change = recommendation.archived ? unarchive : archive;

  const confirm = async () => {
    try {
      await change.mutateAsync({ id });
      setConfirming(false);
      onClose();
    } catch (e) {
      setConfirming(false);
      setError(e);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap gap-2">
        <Badge variant="secondary">{kindLabel[recommendation.kind]}</Badge>
        <Badge variant="outline">{providerLabel(recommendation.provider)}</Badge>
        {recommendation.installedAt ? (
          <Badge variant="success">
            Installed {formatDateTime(timestampDate(recommendation.installedAt))}
          </Badge>
        ) : recommendation.archived ? (
          <Badge variant="outline">Archived</Badge>
        ) : null}
      </div>
      <div className="text-sm leading-relaxed [&_li]:ml-5 [&_li]:list-disc [&_p]:mb-2">
        <MarkdownText>{recommendation.description || "No description."}</MarkdownText>
      </div>
      <RecommendationImpactPreview recommendation={recommendation} />
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Fact label="Policies">
          <span className="font-mono text-xs break-all">{recommendation.policySlugs.join(", ")}</span>
        </Fact>
        <Fact label="Suggested mode">{modeLabel(recommendation.suggestedMode)}</Fact>
        <Fact label="Suggested scopes">
          {recommendation.suggestedScopes.length > 0
            ? recommendation.suggestedScopes.map((s) => s.name || s.externalId).join(", ")
            : "Choose when installing"}
        </Fact>
        <Fact label="Score">{recommendation.score} / 100</Fact>
        <Fact label="Affected resources">{recommendation.affectedResourcesCount}</Fact>
        {recommendation.createdBy && <Fact label="Added by">{recommendation.createdBy}</Fact>}
        {created && <Fact label="Created">{formatDateTime(timestampDate(created))}</Fact>}
        {updated && <Fact label="Updated">{formatDateTime(timestampDate(updated))}</Fact>}
      </dl>
      <div className="flex flex-wrap gap-2">
        {!recommendation.installedAt &&
          permissions.hasAll(
            Permission.RECOMMENDATIONS_INSTALL,
            Permission.POLICIES_WRITE_ALERT,
            Permission.POLICIES_WRITE_PREVENT,
          ) && (
            <Button asChild>
              <Link to="/policies/create" search={installSearch(recommendation)}>
                <RocketIcon />
                Install
              </Link>
            </Button>
          )}
        {permissions.has(Permission.RECOMMENDATIONS_WRITE) && (
          <Button variant="outline" onClick={() => setConfirming(true)}>
            {recommendation.archived ? <ArchiveRestoreIcon /> : <ArchiveIcon />}
            {recommendation.archived ? "Restore" : "Archive"}
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={recommendation.archived ? "Restore this recommendation?" : "Archive this recommendation?"}
        description={
          recommendation.archived
            ? `"${recommendation.title}" goes back to the open recommendations.`
            : `"${recommendation.title}" moves to the archive and is not suggested again until you restore it.`
        }
        confirmLabel={recommendation.archived ? "Restore" : "Archive"}
        pending={change.isPending}
        onConfirm={() => void confirm()}
      />
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </div>
  );
}

/** The side sheet of one recommendation: why, what to deploy where, install, archive or restore. */
export function RecommendationDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const query = useQuery({ ...recommendationQuery(id ?? ""), enabled: !!id });
  const recommendation = query.data?.recommendation;
  return (
    <Sheet open={!!id} onOpenChange={(open) => !open && onClose()}>
      <SheetContent aria-describedby={undefined}>
        <SheetTitle>{recommendation?.title ?? "Recommendation"}</SheetTitle>
        <SheetDescription className="sr-only">Why it is recommended and how to act on it</SheetDescription>
        {query.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading the recommendation">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        ) : query.isError ? (
          <p className="text-sm text-destructive">
            {describeError(query.error).message} Close this panel and pick a recommendation from the list.
          </p>
        ) : recommendation ? (
          <Detail recommendation={recommendation} onClose={onClose} />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}
