import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { HierarchyNode } from "@palisade/api/gen/palisade/connector/v1/connector_pb";
import { ExternalLinkIcon } from "lucide-react";
import { scopeTypeLabels, TreeRow } from "@/components/tree-row";
import { Badge } from "@/components/ui/badge";
import { safeUrl } from "@/lib/safe-url";

function TreeItem({ node, depth }: { node: HierarchyNode; depth: number }) {
  const link = node.link ? safeUrl(node.link) : "";
  return (
    <TreeRow
      node={node}
      depth={depth}
      renderChild={(child) => (
        <TreeItem key={child.entity?.id ?? child.externalId} node={child} depth={depth + 1} />
      )}
    >
      {/* On a phone the type and the id wrap below the name rather than squeeze it to a word a line. */}
      <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5">
        <span className="text-sm font-medium [overflow-wrap:anywhere]">{node.name}</span>
        <Badge variant="outline">{scopeTypeLabels[node.type]}</Badge>
        <span className="max-w-full truncate font-mono text-xs text-muted-foreground" title={node.externalId}>
          {node.externalId}
        </span>
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
    </TreeRow>
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
