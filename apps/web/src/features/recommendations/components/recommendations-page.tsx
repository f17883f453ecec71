import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Recommendation } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { LoaderIcon, PlusIcon, RefreshCwIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { ErrorDialog } from "@/components/error-dialog";
import { PageHeader } from "@/components/page-header";
import { PagePagination } from "@/components/page-pagination";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import { Permission, usePermissions } from "@/lib/permissions";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { recommendationsQuery, useRefreshRecommendations } from "../api/recommendation-queries";
import { RecommendationDrawer } from "./recommendation-detail";
import { kindLabel, modeLabel, providerLabel } from "./recommendation-labels";
import { RecommendationsNav } from "./recommendations-nav";

function RecommendationCard({
  recommendation,
  onOpen,
}: {
  recommendation: Recommendation;
  onOpen: () => void;
}) {
  const updated = recommendation.entity?.updatedAt;
  return (
    <li>
      <Card>
        <CardContent className="flex flex-col gap-2 pt-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex min-w-0 flex-col gap-1.5">
            <button
              type="button"
              onClick={onOpen}
              className="text-left font-medium text-primary underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            >
              {recommendation.title}
            </button>
            <div className="flex flex-wrap gap-1.5">
              <Badge variant="secondary">{kindLabel[recommendation.kind]}</Badge>
              <Badge variant="outline">{providerLabel(recommendation.provider)}</Badge>
              <Badge variant="outline">{modeLabel(recommendation.suggestedMode)} first</Badge>
              {recommendation.installedAt && <Badge variant="success">Installed</Badge>}
            </div>
            <p className="text-xs text-muted-foreground">
              {recommendation.policySlugs.length === 1
                ? "1 policy"
                : `${recommendation.policySlugs.length} policies`}
              {recommendation.suggestedScopes.length > 0 &&
                ` · ${recommendation.suggestedScopes.map((s) => s.name || s.externalId).join(", ")}`}
              {updated && ` · updated ${formatDateTime(timestampDate(updated))}`}
            </p>
          </div>
          <dl className="flex shrink-0 gap-4 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Score</dt>
              <dd className="font-semibold">{recommendation.score}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Affected</dt>
              <dd className="font-semibold">{recommendation.affectedResourcesCount}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
    </li>
  );
}

export function RecommendationsPage({
  archived,
  recommendationId,
}: {
  archived: boolean;
  recommendationId?: string;
}) {
  const permissions = usePermissions();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const debounced = useDebouncedValue(search.trim(), 300);
  const list = useQuery(
    recommendationsQuery({ archived, page, search: debounced.length > 1 ? debounced : "" }),
  );
  const refresh = useRefreshRecommendations();
  const [error, setError] = useState<unknown>(null);
  const to = archived ? "/recommendations/archive" : "/recommendations";
  const open = (id: string | undefined) => void navigate({ to, search: id ? { recommendationId: id } : {} });
  const items = list.data?.items ?? [];
  const totalPages =
    list.data?.pagination?.position.case === "totalPages" ? list.data.pagination.position.value : 1;

  return (
    <>
      <PageHeader
        title={archived ? "Archived recommendations" : "Recommendations"}
        description={
          archived
            ? "Recommendations your team set aside or installed. Restore one to act on it again."
            : "Guardrails worth deploying, based on what happens in your clouds and the frameworks you follow. Install one to turn it into a policy."
        }
        actions={
          <div className="flex flex-wrap gap-2">
            {!archived && permissions.has(Permission.RECOMMENDATIONS_WRITE) && (
              <Button
                variant="outline"
                disabled={refresh.isPending}
                onClick={() => refresh.mutateAsync({}).catch(setError)}
              >
                {refresh.isPending ? <LoaderIcon className="animate-spin" /> : <RefreshCwIcon />}
                {refresh.isPending ? "Recomputing..." : "Recompute"}
              </Button>
            )}
            {permissions.has(Permission.RECOMMENDATIONS_WRITE) && (
              <Button asChild>
                <Link to="/recommendations/addnewmanually">
                  <PlusIcon />
                  Add manually
                </Link>
              </Button>
            )}
          </div>
        }
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <RecommendationsNav />
        <Input
          type="search"
          aria-label="Search recommendations"
          placeholder="Search title or rationale"
          className="sm:w-72"
          value={search}
          maxLength={100}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      {list.isPending ? (
        <div className="space-y-2" role="status" aria-label="Loading recommendations">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : list.isError ? (
        <p className="text-sm text-destructive">
          {describeError(list.error).message} Reload the page to try again.
        </p>
      ) : items.length === 0 ? (
        <EmptyState
          image="list"
          title={
            debounced.length > 1
              ? "No recommendation matches"
              : archived
                ? "No archived recommendations"
                : "No recommendations yet"
          }
          description={
            debounced.length > 1
              ? "Try other words, or clear the search."
              : archived
                ? "Recommendations you archive or install are kept here so nothing is lost."
                : "Connect a cloud so Palisade can suggest guardrails for it, or add a recommendation manually."
          }
        />
      ) : (
        <>
          <ul
            aria-label={archived ? "Archived recommendations" : "Recommendations"}
            className="flex flex-col gap-2"
          >
            {items.map((recommendation) => (
              <RecommendationCard
                key={recommendation.entity?.id}
                recommendation={recommendation}
                onOpen={() => open(recommendation.entity?.id)}
              />
            ))}
          </ul>
          <PagePagination page={page} totalPages={totalPages} onPage={setPage} />
        </>
      )}
      <RecommendationDrawer id={recommendationId} onClose={() => open(undefined)} />
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}
