import type { CloudProvider, Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ChevronDownIcon, ChevronRightIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";

const TYPE_LABEL: Record<ScopeType, string> = {
  [ScopeType.UNSPECIFIED]: "Scope",
  [ScopeType.AWS_ORGANIZATION_ROOT]: "Root",
  [ScopeType.AWS_OU]: "OU",
  [ScopeType.AWS_ACCOUNT]: "Account",
  [ScopeType.AZURE_MANAGEMENT_GROUP]: "Management group",
  [ScopeType.AZURE_SUBSCRIPTION]: "Subscription",
  [ScopeType.AZURE_RESOURCE_GROUP]: "Resource group",
};

export function scopeId(scope: { connectorId: string; externalId: string }): string {
  return `${scope.connectorId}/${scope.externalId}`;
}

export function scopeOf(node: HierarchyNode): Omit<Scope, "$typeName"> {
  return {
    provider: node.provider,
    externalId: node.externalId,
    name: node.name,
    type: node.type,
    connectorId: node.connectorId,
  };
}

function Item({
  node,
  depth,
  selected,
  onToggle,
}: {
  node: HierarchyNode;
  depth: number;
  selected: ReadonlySet<string>;
  onToggle: (node: HierarchyNode) => void;
}) {
  const [open, setOpen] = useState(depth < 2);
  const hasChildren = node.children.length > 0;
  const id = scopeId(node);
  return (
    <li>
      <div
        className="flex items-center gap-2 rounded-md py-1 pr-2 hover:bg-accent"
        style={{ paddingLeft: `${depth * 1.25}rem` }}
      >
        {hasChildren ? (
          <button
            type="button"
            className="rounded-sm text-muted-foreground hover:text-foreground"
            aria-expanded={open}
            aria-label={open ? `Collapse ${node.name}` : `Expand ${node.name}`}
            onClick={() => setOpen(!open)}
          >
            {open ? <ChevronDownIcon className="size-4" /> : <ChevronRightIcon className="size-4" />}
          </button>
        ) : (
          <span className="inline-block size-4" />
        )}
        <label className="flex flex-1 cursor-pointer items-center gap-2 text-sm">
          <input type="checkbox" checked={selected.has(id)} onChange={() => onToggle(node)} />
          <span className="font-medium">{node.name}</span>
          <Badge variant="outline">{TYPE_LABEL[node.type]}</Badge>
          <span className="truncate font-mono text-xs text-muted-foreground">{node.externalId}</span>
        </label>
      </div>
      {hasChildren && open && (
        <ul>
          {node.children.map((child) => (
            <Item
              key={scopeId(child)}
              node={child}
              depth={depth + 1}
              selected={selected}
              onToggle={onToggle}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The synced hierarchy of one cloud with a checkbox per scope. */
export function ScopePicker({
  roots,
  provider,
  selected,
  onToggle,
}: {
  roots: HierarchyNode[];
  provider: CloudProvider | undefined;
  selected: ReadonlySet<string>;
  onToggle: (node: HierarchyNode) => void;
}) {
  const shown = roots.filter((root) => provider === undefined || root.provider === provider);
  if (shown.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        No synced scopes for this cloud. Add a connector and sync its hierarchy on the Connectors page.
      </p>
    );
  }
  return (
    <ul aria-label="Scopes" className="max-h-80 space-y-0.5 overflow-auto rounded-md border p-2">
      {shown.map((root) => (
        <Item key={scopeId(root)} node={root} depth={0} selected={selected} onToggle={onToggle} />
      ))}
    </ul>
  );
}
