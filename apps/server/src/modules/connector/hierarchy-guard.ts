/**
 * A sync that would remove most of the stored hierarchy is far more likely a read that came back
 * short (a throttled or failed page, a role removed from part of the tenant) than a tenant that
 * lost most of its scopes at once; applying it would detach guardrails from scopes that still exist.
 * A second read that finds the same scopes confirms it.
 */
const MIN_REMOVED = 3;

export class HierarchyRefusedError extends Error {
  override name = "HierarchyRefusedError";
}

/** Why the new hierarchy is refused, or undefined when it may replace the stored one. */
export function refuseMassRemoval(storedIds: string[], readIds: string[]): string | undefined {
  const read = new Set(readIds.map((id) => id.toLowerCase()));
  const removed = storedIds.filter((id) => !read.has(id.toLowerCase()));
  if (removed.length < MIN_REMOVED || removed.length * 2 <= storedIds.length) return undefined;
  return `The hierarchy sync was refused: the cloud listed ${readIds.length} scope(s) and ${removed.length} of the ${storedIds.length} known ones would be removed (for example ${removed[0]}). The stored hierarchy is kept. Check the connector's permissions; if these scopes were removed, sync again: a second sync that reads the same scopes applies them.`;
}
