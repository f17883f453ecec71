import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { RocketIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { FilterSelect } from "@/components/filter-select";
import { PagePagination } from "@/components/page-pagination";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { describeError } from "@/lib/error-text";
import { categoryLabels, providerLabel, stateLabels } from "@/lib/policy-definition-labels";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { catalogueQuery, frameworksQuery, resourceTypesQuery } from "../api/policy-queries";
import { categoryOf, providerOf, scoreLabels, totalPagesOf } from "../catalogue-filters";
import { catalogueCategories, catalogueStates, type PoliciesSearch } from "../policies-search";

const SEARCH_DEBOUNCE_MS = 300;

function CatalogueFilters({
  search,
  onChange,
}: {
  search: PoliciesSearch;
  onChange: <K extends keyof PoliciesSearch>(key: K, value: PoliciesSearch[K]) => void;
}) {
  const [text, setText] = useState(search.search ?? "");
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    const value = debounced.trim() || undefined;
    if (value !== search.search) onChange("search", value);
  }, [debounced, search.search, onChange]);
  const provider = search.provider ? providerOf[search.provider] : undefined;
  const frameworks = useQuery(frameworksQuery(provider));
  const resourceTypes = useQuery(resourceTypesQuery(provider));
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6">
      <div className="flex flex-col gap-1 lg:col-span-2">
        <label htmlFor="catalogue-search" className="text-xs font-medium text-muted-foreground">
          Search
        </label>
        <Input
          id="catalogue-search"
          placeholder="Name or description"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <FilterSelect
        label="Provider"
        value={search.provider}
        options={[
          ["AWS", "AWS"],
          ["Azure", "Azure"],
        ]}
        onChange={(value) => onChange("provider", (value || undefined) as PoliciesSearch["provider"])}
      />
      <FilterSelect
        label="Category"
        value={search.category}
        options={catalogueCategories.map((c) => [c, categoryLabels[categoryOf[c]]] as const)}
        onChange={(value) => onChange("category", (value || undefined) as PoliciesSearch["category"])}
      />
      <FilterSelect
        label="State"
        value={search.state}
        options={[
          [catalogueStates[0], "Not installed"],
          [catalogueStates[1], "Alert"],
          [catalogueStates[2], "Prevent"],
        ]}
        onChange={(value) => onChange("state", (value || undefined) as PoliciesSearch["state"])}
      />
      <FilterSelect
        label="Framework"
        value={search.framework}
        options={(frameworks.data?.frameworks ?? []).map((f) => [f, f] as const)}
        onChange={(value) => onChange("framework", value || undefined)}
      />
      <FilterSelect
        label="Resource type"
        className="lg:col-start-3"
        value={search.resourceType}
        options={(resourceTypes.data?.resourceTypes ?? []).map((r) => [r, r] as const)}
        onChange={(value) => onChange("resourceType", value || undefined)}
      />
    </div>
  );
}

export function CatalogueTable({
  search,
  canDeploy,
  onChange,
}: {
  search: PoliciesSearch;
  canDeploy: boolean;
  onChange: <K extends keyof PoliciesSearch>(key: K, value: PoliciesSearch[K]) => void;
}) {
  const list = useQuery(catalogueQuery(search));
  const category = search.category ? categoryOf[search.category] : undefined;
  const items = (list.data?.items ?? []).filter((d) => category === undefined || d.category === category);
  const page = search.page ?? 1;
  return (
    <div className="space-y-4">
      <Card className="p-4">
        <CatalogueFilters search={search} onChange={onChange} />
      </Card>
      <Card className="overflow-hidden">
        {list.isPending ? (
          <div className="space-y-2 p-4" role="status" aria-label="Loading policies">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : list.isError ? (
          <EmptyState
            image="search"
            className="rounded-none border-0"
            title="The catalogue could not be loaded"
            description={describeError(list.error).message}
            action={
              <Button variant="outline" onClick={() => void list.refetch()}>
                Try again
              </Button>
            }
          />
        ) : items.length === 0 ? (
          <EmptyState
            image="search"
            className="rounded-none border-0"
            title="No policy matches these filters"
            description="Clear a filter or search for another word."
          />
        ) : (
          <Table
            aria-label="Policy catalogue"
            stackOnPhone
            aria-busy={list.isPlaceholderData}
            className={list.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
          >
            <TableHeader>
              <TableRow>
                <TableHead>Policy</TableHead>
                <TableHead>Provider</TableHead>
                <TableHead>Category</TableHead>
                <TableHead>Security</TableHead>
                <TableHead>Seamless</TableHead>
                <TableHead>State</TableHead>
                {canDeploy && (
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((definition) => {
                const state = stateLabels[definition.state];
                const provider = providerLabel(definition);
                return (
                  <TableRow key={definition.slug} data-testid="catalogue-row">
                    <TableCell label="Policy" className="max-w-md whitespace-normal">
                      <p className="font-medium">{definition.displayName}</p>
                      <p className="font-mono text-xs text-muted-foreground">{definition.slug}</p>
                    </TableCell>
                    <TableCell label="Provider">{provider}</TableCell>
                    <TableCell label="Category">{categoryLabels[definition.category]}</TableCell>
                    <TableCell label="Security">{scoreLabels[definition.securityScore]}</TableCell>
                    <TableCell label="Seamless">{scoreLabels[definition.seamlessScore]}</TableCell>
                    <TableCell label="State">
                      <Badge variant={state.variant}>{state.label}</Badge>
                    </TableCell>
                    {canDeploy && (
                      <TableCell className="text-right">
                        <Button size="sm" variant="outline" asChild>
                          <Link
                            to="/policies/create"
                            search={{ defaultSelectedPolicies: [definition.slug], provider }}
                            aria-label={`Deploy ${definition.displayName}`}
                          >
                            <RocketIcon />
                            Deploy
                          </Link>
                        </Button>
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </Card>
      {list.data && (
        <PagePagination
          page={page}
          totalPages={category === undefined ? totalPagesOf(list.data.pagination) : 1}
          onPage={(next) => onChange("page", next)}
        />
      )}
    </div>
  );
}
