import { timestampDate } from "@bufbuild/protobuf/wkt";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type ImpactCount,
  type ImpactPreview,
  ImpactPreviewStatus,
} from "@palisade/api/gen/palisade/deployment/v1/impact_preview_pb";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderIcon, RefreshCwIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/lib/date-time";
import { describeError } from "@/lib/error-text";
import {
  type ImpactPreviewRequest,
  impactPreviewQuery,
  previewRunning,
  useStartImpactPreview,
} from "@/lib/impact-preview";
import { cn } from "@/lib/utils";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Same request, same answer: the panel starts over only when what is previewed changes. */
function requestKey(request: ImpactPreviewRequest | undefined): string {
  return request ? JSON.stringify(request, (_k, v) => (typeof v === "bigint" ? String(v) : v)) : "";
}

/**
 * What a policy would have denied on the chosen scopes over the last 30 days, replayed from the
 * cloud's audit stream. `request` is undefined until a policy and scopes are chosen. With
 * `autoStart` the replay starts as soon as the panel shows (a confirmation dialog); otherwise
 * the person asks for it (a form whose choices are still changing).
 */
export function ImpactPreviewPanel({
  request,
  autoStart = false,
  missing = "Choose a policy and at least one scope to preview what it would deny.",
  className,
}: {
  request: ImpactPreviewRequest | undefined;
  autoStart?: boolean;
  missing?: string;
  className?: string;
}) {
  const start = useStartImpactPreview();
  const queryClient = useQueryClient();
  const [previewId, setPreviewId] = useState("");
  const [startedFor, setStartedFor] = useState("");
  const key = requestKey(request);
  const run = (refresh: boolean) => {
    if (!request) return;
    setStartedFor(key);
    start.mutate(
      { ...request, refresh },
      {
        onSuccess: (answer) => {
          const id = answer.preview?.id ?? "";
          setPreviewId(id);
          // A replay answers the same preview, queued again: its finished answer read before must
          // be read anew, so that the progress shows and is followed until the replay finishes.
          if (id) void queryClient.invalidateQueries({ queryKey: impactPreviewQuery(id).queryKey });
        },
      },
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per distinct request.
  useEffect(() => {
    if (autoStart && key && key !== startedFor) run(false);
  }, [autoStart, key]);
  const answer = useQuery(impactPreviewQuery(previewId));
  const preview = answer.data?.preview;
  const stale = startedFor !== "" && startedFor !== key;

  return (
    <section
      aria-labelledby="impact-preview-title"
      data-testid="impact-preview"
      className={cn("space-y-3 rounded-lg border bg-card p-4 text-sm", className)}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="impact-preview-title" className="font-semibold">
          Impact preview
        </h3>
        {request && (previewId === "" || stale) && !start.isPending && (
          <Button type="button" size="sm" variant="outline" onClick={() => run(false)}>
            Preview impact
          </Button>
        )}
        {request && previewId !== "" && !stale && preview && !previewRunning(preview.status) && (
          <Button type="button" size="sm" variant="ghost" onClick={() => run(true)}>
            <RefreshCwIcon />
            Replay again
          </Button>
        )}
      </div>
      {!request ? (
        <p className="text-muted-foreground">{missing}</p>
      ) : start.isError ? (
        <p className="text-destructive">The preview could not start: {describeError(start.error).message}</p>
      ) : stale ? (
        <p className="text-muted-foreground">
          The policy, its parameters or the scopes changed since the last preview: preview again.
        </p>
      ) : previewId === "" && !start.isPending ? (
        <p className="text-muted-foreground">
          Replays the last 30 days of the cloud's audit stream against this policy and tells you what it would
          have denied, and who.
        </p>
      ) : answer.isError ? (
        <p className="text-destructive">
          The preview could not be read: {describeError(answer.error).message} Try again.
        </p>
      ) : !preview || previewRunning(preview.status) ? (
        <Progress preview={preview} />
      ) : preview.status === ImpactPreviewStatus.FAILED ? (
        <p className="text-destructive">
          The preview failed: {preview.error} Check the connector on the Connectors page, then replay again.
        </p>
      ) : (
        <ImpactPreviewResult preview={preview} />
      )}
    </section>
  );
}

function Progress({ preview }: { preview: ImpactPreview | undefined }) {
  return (
    <p className="flex items-center gap-2 text-muted-foreground" aria-live="polite">
      <LoaderIcon className="size-4 animate-spin" />
      {!preview || preview.status === ImpactPreviewStatus.QUEUED
        ? "Waiting to read the audit stream…"
        : `Reading the audit stream: ${plural(preview.pagesRead, "page")} read, ${plural(
            preview.recordsEvaluated,
            "record",
          )} evaluated…`}
    </p>
  );
}

/** A finished preview: what would be denied, what is denied already, what could not be evaluated. */
export function ImpactPreviewResult({ preview }: { preview: ImpactPreview }) {
  const scopeWord = preview.provider === CloudProvider.AZURE ? "subscription" : "account";
  const period =
    preview.periodStart && preview.periodEnd
      ? `${formatDateTime(timestampDate(preview.periodStart))} – ${formatDateTime(timestampDate(preview.periodEnd))}`
      : `the last ${preview.periodDays} days`;
  return (
    <div className="space-y-3" aria-live="polite">
      <p data-testid="impact-preview-summary">
        {preview.deniedCount === 0 ? (
          <>
            <strong>No action would have been denied</strong> in {period}
          </>
        ) : (
          <>
            <strong>
              {plural(preview.deniedCount, "action")} by {plural(preview.distinctPrincipals, "principal")}
            </strong>{" "}
            would have been denied in {period}
          </>
        )}
        {` (${plural(preview.recordsEvaluated, "record")} read).`}
        {preview.alreadyDeniedCount > 0 &&
          ` ${plural(preview.alreadyDeniedCount, "more request")} ${
            preview.alreadyDeniedCount === 1 ? "is" : "are"
          } denied already, by the cloud or a guardrail deployed on the same scopes.`}
        {preview.notEvaluableCount > 0 && (
          <>
            {" "}
            <strong data-testid="impact-preview-not-evaluable">
              Not evaluable: {preview.notEvaluableCount.toLocaleString()}
            </strong>{" "}
            {preview.notEvaluableCount === 1 ? "request's record does" : "requests' records do"} not tell what
            the guardrail reads; they are not counted as allowed.
          </>
        )}
        {preview.nonCompliantResources > 0 &&
          ` ${plural(preview.nonCompliantResources, "existing resource")} ${
            preview.nonCompliantResources === 1 ? "does" : "do"
          } not comply today.`}
      </p>
      {preview.deniedCount > 0 && (
        <div className="grid gap-3 sm:grid-cols-3">
          <TopList title="Top actions" items={preview.topActions} />
          <TopList title="Top principals" items={preview.topPrincipals} />
          <TopList title={`Top ${scopeWord}s`} items={preview.topScopes} />
        </div>
      )}
      {preview.topNotEvaluable.length > 0 && (
        <div className="sm:w-1/3">
          <TopList title="Not evaluable" items={preview.topNotEvaluable} />
        </div>
      )}
      {preview.samples.length > 0 && (
        <details>
          <summary className="cursor-pointer font-medium">
            Latest {plural(preview.samples.length, "record")} it would have denied
          </summary>
          <ul className="mt-2 space-y-1">
            {preview.samples.map((sample) => (
              <li key={sample.eventId} className="break-words text-xs">
                <span className="text-muted-foreground">
                  {sample.time ? formatDateTime(timestampDate(sample.time)) : ""}
                </span>{" "}
                <span className="font-mono">{sample.action}</span> by{" "}
                <span className="font-mono">{sample.principal}</span> in {sample.scopeName || sample.scopeId}
              </li>
            ))}
          </ul>
        </details>
      )}
      {preview.limitations.length > 0 && (
        <div>
          <p className="font-medium">What the preview could not see</p>
          <ul className="list-disc space-y-1 pl-5 text-xs text-muted-foreground">
            {preview.limitations.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function TopList({ title, items }: { title: string; items: ImpactCount[] }) {
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium text-muted-foreground">{title}</p>
      <ul className="space-y-0.5">
        {items.map((item) => (
          <li key={item.value} className="flex justify-between gap-2 text-xs">
            <span className="truncate font-mono" title={item.value}>
              {item.name || item.value}
            </span>
            <span className="tabular-nums">{item.count.toLocaleString()}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
