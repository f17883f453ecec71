import type { Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Database } from "../../db/database";
import { findHierarchyNodes } from "../connector/connector-api";
import { listTenantHierarchy } from "./event-lookup-repository";
import { scopeMessage } from "./event-message";

export interface HierarchyNode {
  externalId: string;
  parent: string | null;
  name: string;
  type: string;
  connectorId: string;
  provider: string;
}

/** The tenant's hierarchy keyed by lower-cased external id: ids differ in case between APIs. */
export interface HierarchyView {
  nodes: Map<string, HierarchyNode>;
  children: Map<string, string[]>;
}

export async function hierarchyOf(db: Database, tenantId: string): Promise<HierarchyView> {
  const rows = await listTenantHierarchy(db, tenantId);
  const nodes = new Map(rows.map((r) => [r.externalId.toLowerCase(), r]));
  const children = new Map<string, string[]>();
  for (const r of rows) {
    const parent = r.parent?.toLowerCase() ?? "";
    children.set(parent, [...(children.get(parent) ?? []), r.externalId.toLowerCase()]);
  }
  return { nodes, children };
}

/** The scope and every scope below it (lower-cased). */
export function descendants(view: HierarchyView, scope: string): string[] {
  const out: string[] = [];
  const stack = [scope.toLowerCase()];
  while (stack.length > 0 && out.length < 100_000) {
    const next = stack.pop() as string;
    if (out.includes(next)) continue;
    out.push(next);
    stack.push(...(view.children.get(next) ?? []));
  }
  return out;
}

/** The synced hierarchy nodes of the rows' scopes, as messages keyed by external id. */
export async function scopesOf(
  db: Database,
  tenantId: string,
  rows: { resource_scope: string | null }[],
): Promise<Map<string, Scope>> {
  const wanted = [...new Set(rows.map((r) => r.resource_scope).filter((s): s is string => Boolean(s)))];
  const nodes = await findHierarchyNodes(db, tenantId, wanted);
  return new Map(nodes.map((node) => [node.externalId, scopeMessage(node)]));
}
