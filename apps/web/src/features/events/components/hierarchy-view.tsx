import type { MessageInitShape } from "@bufbuild/protobuf";
import type { EventFilterSchema } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { useQuery } from "@tanstack/react-query";
import { ChevronRightIcon, FilterIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { describeError } from "@/lib/error-text";
import { hierarchyEventsQuery } from "../api/event-queries";

interface Crumb {
  externalId: string;
  name: string;
}

const counts = [
  ["prevention", "Prevented"],
  ["alerts", "Alerts"],
  ["waivers", "Waived"],
  ["drifts", "Drifts"],
] as const;

/**
 * Event counts down the cloud hierarchy: organisation roots and management groups, then OUs and
 * management groups, then accounts and subscriptions. Opening a scope shows the level below it;
 * "Show events" filters the lists by that scope.
 */
export function HierarchyView({
  filter,
  onFilterScope,
}: {
  filter: MessageInitShape<typeof EventFilterSchema>;
  onFilterScope: (externalId: string) => void;
}) {
  const [path, setPath] = useState<Crumb[]>([]);
  const parent = path.at(-1)?.externalId;
  // The scope filter is what this view chooses; the other filters still apply.
  const level = useQuery(hierarchyEventsQuery({ ...filter, scope: [] }, parent));
  return (
    <Card className="min-w-0 space-y-3 p-4">
      <nav aria-label="Hierarchy level" className="flex flex-wrap items-center gap-1 text-sm">
        <button type="button" className="text-primary hover:underline" onClick={() => setPath([])}>
          All clouds
        </button>
        {path.map((crumb, i) => (
          <span key={crumb.externalId} className="flex min-w-0 items-center gap-1">
            <ChevronRightIcon className="size-3.5 text-muted-foreground" aria-hidden="true" />
            <button
              type="button"
              className="truncate text-primary hover:underline"
              title={crumb.externalId}
              onClick={() => setPath(path.slice(0, i + 1))}
            >
              {crumb.name}
            </button>
          </span>
        ))}
      </nav>
      {level.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : level.isError ? (
        <p className="text-sm text-destructive">{describeError(level.error).message}</p>
      ) : level.data.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No scopes here. Connect a cloud on the Connectors page to see its organisation.
        </p>
      ) : (
        <ul className="divide-y" aria-label="Scopes">
          {level.data.items.map(({ scope, summary, hasChildren }) => {
            const externalId = scope?.externalId ?? "";
            const name = scope?.name || externalId;
            return (
              <li
                key={externalId}
                data-testid="hierarchy-scope"
                className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  {hasChildren ? (
                    <button
                      type="button"
                      className="flex max-w-full items-center gap-1 font-medium text-primary hover:underline"
                      title={externalId}
                      onClick={() => setPath([...path, { externalId, name }])}
                    >
                      <span className="truncate">{name}</span>
                      <ChevronRightIcon className="size-4 shrink-0" aria-hidden="true" />
                    </button>
                  ) : (
                    <span className="block truncate font-medium" title={externalId}>
                      {name}
                    </span>
                  )}
                  <dl className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
                    {counts.map(([field, label]) => (
                      <div key={field} className="flex gap-1">
                        <dt>{label}</dt>
                        <dd className="tabular-nums">{summary?.[field] ?? 0}</dd>
                      </div>
                    ))}
                  </dl>
                </div>
                <Button size="sm" variant="outline" onClick={() => onFilterScope(externalId)}>
                  <FilterIcon />
                  Show events of {name}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
