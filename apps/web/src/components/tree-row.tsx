import { ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ChevronDownIcon, ChevronRightIcon } from "lucide-react";
import { type ReactNode, useState } from "react";

export const scopeTypeLabels: Record<ScopeType, string> = {
  [ScopeType.UNSPECIFIED]: "Scope",
  [ScopeType.AWS_ORGANIZATION_ROOT]: "Root",
  [ScopeType.AWS_OU]: "OU",
  [ScopeType.AWS_ACCOUNT]: "Account",
  [ScopeType.AZURE_MANAGEMENT_GROUP]: "Management group",
  [ScopeType.AZURE_SUBSCRIPTION]: "Subscription",
  [ScopeType.AZURE_RESOURCE_GROUP]: "Resource group",
};

/**
 * One node of a cloud hierarchy: its expander, what the caller shows for it, and below it its
 * children, each drawn by `renderChild` (which gives each its key).
 */
export function TreeRow({
  node,
  depth,
  children,
  renderChild,
}: {
  node: HierarchyNode;
  depth: number;
  children: ReactNode;
  renderChild: (child: HierarchyNode) => ReactNode;
}) {
  // The top two levels start open: enough to see the shape of an organisation at a glance.
  const [open, setOpen] = useState(depth < 2);
  const hasChildren = node.children.length > 0;
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
        {children}
      </div>
      {hasChildren && open && <ul>{node.children.map(renderChild)}</ul>}
    </li>
  );
}
