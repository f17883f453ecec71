import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { SearchIcon, XIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { FilterSelect } from "@/components/filter-select";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { hierarchyQuery } from "@/lib/hierarchy-query";
import { scopeName, scopeNamesOf } from "@/lib/scope-names";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { cn } from "@/lib/utils";
import { policyChoicesQuery, resourceTypesQuery, userNamesQuery } from "../api/event-queries";
import { eventUserName } from "../event-filter";
import { eventTypeLabels, toggleEventType } from "../event-type-labels";
import { type EventsSearch, eventTypes, searchText, selectedEventTypes } from "../events-search";

const SEARCH_DEBOUNCE_MS = 300;

type ListKey = "resourceType" | "policyName" | "scope" | "user";

/** A select whose choice is added to a list filter; the list shows as removable chips. */
function AddSelect({
  label,
  options,
  onAdd,
}: {
  label: string;
  options: readonly (readonly [string, string])[];
  onAdd: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <select
        id={id}
        className="h-9 w-full min-w-0 rounded-md border border-input bg-card px-2 text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-ring"
        value=""
        onChange={(event) => event.target.value && onAdd(event.target.value)}
      >
        <option value="">Any</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

interface FlatScope {
  externalId: string;
  name: string;
  depth: number;
}

function flatScopes(
  nodes: readonly { name: string; externalId: string; children: never[] }[],
  depth = 0,
): FlatScope[] {
  return nodes.flatMap((node) => [
    { externalId: node.externalId, name: node.name || node.externalId, depth },
    ...flatScopes(node.children, depth + 1),
  ]);
}

/** A text field written to the address 300 ms after typing stops; a single character is not searched. */
function useDebouncedSearch(value: string | undefined, write: (value: string | undefined) => void) {
  const [text, setText] = useState(value ?? "");
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  // The address changed from elsewhere (a link, clearing the filters).
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if ((searchText(text) ?? "") !== (value ?? "")) setText(value ?? "");
  }
  useEffect(() => {
    // Only a settled value is written: a stale one would undo a change made elsewhere meanwhile.
    if (debounced !== text) return;
    const next = searchText(debounced);
    if (next !== (value || undefined)) write(next);
  }, [debounced, text, value, write]);
  return [text, setText] as const;
}

/** Every filter of the events page, each kept in the address. */
export function EventFilters({ search }: { search: EventsSearch }) {
  const navigate = useNavigate({ from: "/events/" });
  const set = (patch: Partial<EventsSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const selected = selectedEventTypes(search.type);
  const [resourceName, setResourceName] = useDebouncedSearch(search.resourceName, (value) =>
    set({ resourceName: value }),
  );
  const [userSearch, setUserSearch] = useState("");
  const userQuery = useDebouncedValue(searchText(userSearch), SEARCH_DEBOUNCE_MS);
  const resourceTypes = useQuery(resourceTypesQuery());
  const users = useQuery(userNamesQuery(userQuery));
  const policies = useQuery(policyChoicesQuery());
  const hierarchy = useQuery(hierarchyQuery());
  const scopes = flatScopes((hierarchy.data?.roots ?? []) as never);
  const names = scopeNamesOf(hierarchy.data?.roots ?? []);
  const bundles = (policies.data?.items ?? []).flatMap((item) => (item.bundle ? [item.bundle] : []));
  const bundleName = (id: string) => bundles.find((b) => b.entity?.id === id)?.name ?? "this policy";
  const nameInputId = useId();
  const userInputId = useId();

  const add = (key: ListKey, value: string) => {
    const list = search[key] ?? [];
    if (!list.includes(value)) set({ [key]: [...list, value] });
  };
  const remove = (key: ListKey, value: string) => {
    const list = (search[key] ?? []).filter((v) => v !== value);
    set({ [key]: list.length > 0 ? list : undefined });
  };
  const userLabel = (id: string) => {
    const user = users.data?.users.find((u) => u.identifier === id);
    return user ? eventUserName(user) : id;
  };

  const chips: { key: string; label: string; title?: string; onRemove: () => void }[] = [
    ...(search.policyId
      ? [
          {
            key: "policyId",
            label: `Policy: ${bundleName(search.policyId)}`,
            onRemove: () => set({ policyId: undefined }),
          },
        ]
      : []),
    ...(search.resourceType ?? []).map((v) => ({
      key: `resourceType-${v}`,
      label: `Resource type: ${v}`,
      onRemove: () => remove("resourceType", v),
    })),
    ...(search.policyName ?? []).map((v) => ({
      key: `policyName-${v}`,
      label: `Policy name: ${v}`,
      onRemove: () => remove("policyName", v),
    })),
    ...(search.scope ?? []).map((v) => ({
      key: `scope-${v}`,
      label: `Scope: ${scopeName(names, v)}`,
      title: v,
      onRemove: () => remove("scope", v),
    })),
    ...(search.user ?? []).map((v) => ({
      key: `user-${v}`,
      label: `User: ${userLabel(v)}`,
      title: v,
      onRemove: () => remove("user", v),
    })),
  ];
  const hasFilters =
    selected.length > 0 ||
    chips.length > 0 ||
    !!search.resourceName ||
    !!search.from ||
    !!search.to ||
    !!search.provider;

  return (
    <Card className="min-w-0 space-y-3 p-4">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
        <div className="relative lg:w-72">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <label htmlFor={nameInputId} className="sr-only">
            Resource name
          </label>
          <Input
            id={nameInputId}
            className="pl-9"
            placeholder="Search by resource name"
            value={resourceName}
            onChange={(event) => setResourceName(event.target.value)}
          />
        </div>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Event type</legend>
          {eventTypes.map((type) => {
            const on = selected.includes(type);
            return (
              <button
                key={type}
                type="button"
                aria-pressed={on}
                onClick={() => set({ type: toggleEventType(selected, type) })}
                className={cn(
                  "rounded-full border px-3 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring",
                  on ? "border-primary bg-primary text-primary-foreground" : "bg-card hover:bg-accent",
                )}
              >
                {eventTypeLabels[type]}
              </button>
            );
          })}
        </fieldset>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-8">
        <FilterSelect
          label="Policy"
          value={search.policyId}
          options={bundles.map((b) => [b.entity?.id ?? "", b.name] as const)}
          onChange={(value) => set({ policyId: value || undefined })}
        />
        <AddSelect
          label="Policy name"
          options={[...new Set(bundles.map((b) => b.name))].map((n) => [n, n] as const)}
          onAdd={(value) => add("policyName", value)}
        />
        <AddSelect
          label="Resource type"
          options={(resourceTypes.data?.resourceTypes ?? []).map((t) => [t, t] as const)}
          onAdd={(value) => add("resourceType", value)}
        />
        <AddSelect
          label="Scope"
          options={scopes.map((s) => [s.externalId, `${"\u00a0\u00a0".repeat(s.depth)}${s.name}`] as const)}
          onAdd={(value) => add("scope", value)}
        />
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={userInputId} className="text-xs font-medium text-muted-foreground">
            User
          </label>
          <Input
            id={userInputId}
            className="h-9"
            list={`${userInputId}-list`}
            placeholder="Name or identifier"
            value={userSearch}
            onChange={(event) => setUserSearch(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== "Enter") return;
              const text = userSearch.trim();
              const match = users.data?.users.find(
                (u) => u.identifier === text || eventUserName(u).toLowerCase() === text.toLowerCase(),
              );
              if (text) add("user", match?.identifier || text);
              setUserSearch("");
            }}
          />
          <datalist id={`${userInputId}-list`}>
            {(users.data?.users ?? []).map((u) => (
              <option key={u.identifier} value={u.identifier}>
                {eventUserName(u)}
              </option>
            ))}
          </datalist>
        </div>
        <FilterSelect
          label="Cloud"
          value={search.provider}
          options={[
            ["aws", "AWS"],
            ["azure", "Azure"],
          ]}
          onChange={(value) => set({ provider: (value || undefined) as EventsSearch["provider"] })}
        />
        <DayInput label="From" value={search.from} max={search.to} onChange={(from) => set({ from })} />
        <DayInput label="To" value={search.to} min={search.from} onChange={(to) => set({ to })} />
      </div>
      {hasFilters && (
        <div className="flex flex-wrap items-center gap-2">
          <ul className="flex min-w-0 flex-wrap items-center gap-2" aria-label="Active filters">
            {chips.map((chip) => (
              <li key={chip.key} className="min-w-0">
                <span
                  className="inline-flex max-w-full items-center gap-1 rounded-full border bg-secondary px-2.5 py-0.5 text-xs"
                  title={chip.title}
                >
                  <span className="truncate">{chip.label}</span>
                  <button
                    type="button"
                    className="rounded-full hover:bg-accent"
                    aria-label={`Remove ${chip.label}`}
                    onClick={chip.onRemove}
                  >
                    <XIcon className="size-3" />
                  </button>
                </span>
              </li>
            ))}
          </ul>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setResourceName("");
              void navigate({ search: (prev) => ({ view: prev.view }) });
            }}
          >
            <XIcon />
            Clear filters
          </Button>
        </div>
      )}
    </Card>
  );
}

function DayInput({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <Input
        id={id}
        type="date"
        className="h-9"
        value={value ?? ""}
        min={min}
        max={max}
        onChange={(event) => onChange(event.target.value || undefined)}
      />
    </div>
  );
}
