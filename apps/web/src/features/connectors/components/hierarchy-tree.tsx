import { CloudProvider, ScopeType } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ChevronDownIcon, ChevronRightIcon, ExternalLinkIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { safeUrl } from "@/lib/safe-url";

const TYPE_LABEL: Record<ScopeType, string> = {
  [ScopeType.UNSPECIFIED]: "Scope",
  [ScopeType.AWS_ORGANIZATION_ROOT]: "Root",
  [ScopeType.AWS_OU]: "OU",
  [ScopeType.AWS_ACCOUNT]: "Account",
  [ScopeType.AZURE_MANAGEMENT_GROUP]: "Management group",
  [ScopeType.AZURE_SUBSCRIPTION]: "Subscription",
  [ScopeType.AZURE_RESOURCE_GROUP]: "Resource group",
};

function TreeItem({ node, depth }: { node: HierarchyNode; depth: number }) {
  // The top two levels start open: enough to see the shape of an organisation at a glance.
  const [open, setOpen] = useState(depth < 2);
  const hasChildren = node.children.length > 0;
  const link = node.link ? safeUrl(node.link) : "";
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
        <span className="text-sm font-medium">{node.name}</span>
        <Badge variant="outline">{TYPE_LABEL[node.type]}</Badge>
        <span className="truncate font-mono text-xs text-muted-foreground" title={node.externalId}>
          {node.externalId}
        </span>
        {link && (
          <a
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            className="ml-auto text-muted-foreground hover:text-foreground"
            aria-label={`Open ${node.name} in the ${node.provider === CloudProvider.AWS ? "AWS console" : "Azure portal"}`}
          >
            <ExternalLinkIcon className="size-4" />
          </a>
        )}
      </div>
      {hasChildren && open && (
        <ul>
          {node.children.map((child) => (
            <TreeItem key={child.entity?.id ?? child.externalId} node={child} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function HierarchyTree({ roots, label }: { roots: HierarchyNode[]; label: string }) {
  return (
    <ul aria-label={label} className="space-y-0.5">
      {roots.map((root) => (
        <TreeItem key={root.entity?.id ?? root.externalId} node={root} depth={0} />
      ))}
    </ul>
  );
}
