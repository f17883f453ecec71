/** Names of the tenant's synced scopes, to show names where data holds external ids. */

interface NamedNode {
  name: string;
  externalId: string;
  children: NamedNode[];
}

/** Scope names by lower-cased external id, from the synced hierarchy. */
export function scopeNamesOf(roots: readonly NamedNode[]): Map<string, string> {
  const names = new Map<string, string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop() as NamedNode;
    if (node.externalId) names.set(node.externalId.toLowerCase(), node.name || node.externalId);
    stack.push(...node.children);
  }
  return names;
}

/** A scope's name when the hierarchy knows it; otherwise the last segment of an Azure id, or the id. */
export function scopeName(names: ReadonlyMap<string, string>, externalId: string): string {
  const known = names.get(externalId.toLowerCase());
  if (known) return known;
  return externalId.startsWith("/")
    ? (externalId.split("/").filter(Boolean).pop() ?? externalId)
    : externalId;
}

/**
 * How a cloud scope, account, subscription, policy or principal reads everywhere: its name
 * first, its id kept for hover and copy. Without a name the id is all there is to show.
 */
export function cloudDisplayName(name: string | undefined, id: string): { text: string; id: string } {
  const trimmed = name?.trim();
  return { text: trimmed || id, id };
}
