import type { CloudProvider, Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Connector, HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { scopeTypeLabels, TreeRow } from "@/components/tree-row";
import { Badge } from "@/components/ui/badge";

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

/**
 * Scopes a guardrail cannot apply to, by scopeId: AWS management accounts, which service control
 * policies never restrict.
 */
export function managementAccountScopes(
  connectors: readonly Pick<Connector, "entity" | "config">[],
): Set<string> {
  return new Set(
    connectors.flatMap((c) => {
      const connectorId = c.entity?.id;
      return c.config?.kind.case === "aws" && connectorId
        ? [scopeId({ connectorId, externalId: c.config.kind.value.managementAccountId })]
        : [];
    }),
  );
}

function Item({
  node,
  depth,
  selected,
  undeployable,
  onToggle,
}: {
  node: HierarchyNode;
  depth: number;
  selected: ReadonlySet<string>;
  undeployable: ReadonlySet<string>;
  onToggle: (node: HierarchyNode) => void;
}) {
  const managementAccount = undeployable.has(scopeId(node));
  return (
    <TreeRow
      node={node}
      depth={depth}
      renderChild={(child) => (
        <Item
          key={scopeId(child)}
          node={child}
          depth={depth + 1}
          selected={selected}
          undeployable={undeployable}
          onToggle={onToggle}
        />
      )}
    >
      <label className="flex flex-1 cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={selected.has(scopeId(node))}
          disabled={managementAccount && !selected.has(scopeId(node))}
          onChange={() => onToggle(node)}
        />
        <span className="font-medium">{node.name}</span>
        <Badge variant="outline">{scopeTypeLabels[node.type]}</Badge>
        <span className="truncate font-mono text-xs text-muted-foreground">{node.externalId}</span>
        {managementAccount && (
          <span className="text-xs text-muted-foreground">
            management account: service control policies never restrict it
          </span>
        )}
      </label>
    </TreeRow>
  );
}

/** The synced hierarchy of one cloud with a checkbox per scope. */
export function ScopePicker({
  roots,
  provider,
  selected,
  undeployable = new Set(),
  onToggle,
}: {
  roots: HierarchyNode[];
  provider: CloudProvider | undefined;
  selected: ReadonlySet<string>;
  undeployable?: ReadonlySet<string>;
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
        <Item
          key={scopeId(root)}
          node={root}
          depth={0}
          selected={selected}
          undeployable={undeployable}
          onToggle={onToggle}
        />
      ))}
    </ul>
  );
}
