const storageKey = "palisade.chunkReloads";

const chunkErrorPattern =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): error is Error {
  return error instanceof Error && chunkErrorPattern.test(error.message);
}

function readSeen(storage: Pick<Storage, "getItem">): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((m): m is string => typeof m === "string") : [];
  } catch {
    return [];
  }
}

/** The router reloads once by itself when a route's code fails to load, and remembers it under this key. */
function routerReloadKey(message: string): string {
  return `tanstack_router_reload:${message}`;
}

/**
 * A new deployment removes the chunks an open tab still refers to; one full reload fetches the new
 * ones. Remembering each message prevents a reload loop when the chunk is really gone.
 * Returns true when the caller should reload.
 */
export function shouldReloadForChunkError(
  error: unknown,
  storage: Pick<Storage, "getItem" | "setItem"> = sessionStorage,
): boolean {
  if (!isChunkLoadError(error)) return false;
  const seen = readSeen(storage);
  if (seen.includes(error.message) || storage.getItem(routerReloadKey(error.message)) !== null) return false;
  storage.setItem(storageKey, JSON.stringify([...seen, error.message]));
  return true;
}
