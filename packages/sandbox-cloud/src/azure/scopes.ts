import type { AzureState } from "../state/model";

export const MG_PREFIX = "/providers/Microsoft.Management/managementGroups/";

export const mgId = (name: string) => `${MG_PREFIX}${name}`;

const norm = (s: string) => s.replace(/\/+$/, "").toLowerCase();

export type ScopeKind = "managementGroup" | "subscription" | "resourceGroup" | "resource";

export interface ParsedScope {
  kind: ScopeKind;
  managementGroup?: string;
  subscriptionId?: string;
  resourceGroup?: string;
}

export function parseScope(scope: string): ParsedScope | undefined {
  const s = scope.replace(/\/+$/, "");
  const mg = /^\/providers\/Microsoft\.Management\/managementGroups\/([^/]+)$/i.exec(s);
  if (mg) return { kind: "managementGroup", managementGroup: mg[1]! };
  const subLevel = /^\/subscriptions\/([^/]+)\/providers\/.+$/i.exec(s);
  if (subLevel) return { kind: "resource", subscriptionId: subLevel[1]! };
  const m = /^\/subscriptions\/([^/]+)(?:\/resourceGroups\/([^/]+)(\/providers\/.+)?)?$/i.exec(s);
  if (!m) return undefined;
  if (m[3]) return { kind: "resource", subscriptionId: m[1]!, resourceGroup: m[2]! };
  if (m[2]) return { kind: "resourceGroup", subscriptionId: m[1]!, resourceGroup: m[2] };
  return { kind: "subscription", subscriptionId: m[1]! };
}

/** Canonical spelling of a scope that exists in the tenant, or undefined. */
export function resolveScope(azure: AzureState, scope: string): string | undefined {
  const parsed = parseScope(scope);
  if (!parsed) return undefined;
  if (parsed.kind === "managementGroup") {
    const g = azure.managementGroups.find((x) => norm(x.name) === norm(parsed.managementGroup!));
    return g ? mgId(g.name) : undefined;
  }
  const sub = azure.subscriptions.find((x) => norm(x.subscriptionId) === norm(parsed.subscriptionId!));
  if (!sub) return undefined;
  if (parsed.kind === "subscription") return `/subscriptions/${sub.subscriptionId}`;
  if (!parsed.resourceGroup) return azure.resources.find((r) => norm(r.id) === norm(scope))?.id;
  const rg = azure.resourceGroups.find(
    (x) => x.subscriptionId === sub.subscriptionId && norm(x.name) === norm(parsed.resourceGroup!),
  );
  if (!rg) return undefined;
  const rgId = `/subscriptions/${sub.subscriptionId}/resourceGroups/${rg.name}`;
  if (parsed.kind === "resourceGroup") return rgId;
  return azure.resources.find((r) => norm(r.id) === norm(scope))?.id;
}

function managementGroupChain(azure: AzureState, name: string): string[] {
  const chain: string[] = [];
  let current: string | null = name;
  while (current) {
    const group = azure.managementGroups.find((g) => g.name === current);
    if (!group) break;
    chain.unshift(mgId(group.name));
    current = group.parentName;
  }
  return chain;
}

/** Every scope from the tenant root group down to `scope` itself, canonical spelling. */
export function scopeChain(azure: AzureState, scope: string): string[] {
  const parsed = parseScope(scope);
  if (!parsed) return [];
  if (parsed.kind === "managementGroup") return managementGroupChain(azure, parsed.managementGroup!);
  const sub = azure.subscriptions.find((x) => norm(x.subscriptionId) === norm(parsed.subscriptionId!));
  if (!sub) return [];
  const chain = [
    ...managementGroupChain(azure, sub.managementGroupName),
    `/subscriptions/${sub.subscriptionId}`,
  ];
  if (parsed.kind === "subscription") return chain;
  if (!parsed.resourceGroup) return [...chain, scope.replace(/\/+$/, "")];
  const rgId = `/subscriptions/${sub.subscriptionId}/resourceGroups/${parsed.resourceGroup}`;
  chain.push(rgId);
  if (parsed.kind === "resource") chain.push(scope.replace(/\/+$/, ""));
  return chain;
}

export function isAtOrBelow(azure: AzureState, scope: string, ancestor: string): boolean {
  const a = norm(ancestor);
  return scopeChain(azure, scope).some((s) => norm(s) === a) || norm(scope).startsWith(`${a}/`);
}

export const sameScope = (a: string, b: string) => norm(a) === norm(b);
