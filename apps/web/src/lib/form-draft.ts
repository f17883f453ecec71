/**
 * Unsaved form input kept across a sign-in: a page saves its form under its own key (its route,
 * and whatever else tells its forms apart) when the session ends, reads it back once when it opens
 * again, and clears it once the form is sent. Kept in sessionStorage: one tab, until it is closed.
 */
const prefix = "palisade.draft:";

function storageOrNull(storage: Storage | undefined): Storage | null {
  try {
    return storage ?? globalThis.sessionStorage ?? null;
  } catch {
    // Reading sessionStorage throws when the browser refuses storage to the page.
    return null;
  }
}

export function saveDraft(key: string, values: unknown, storage?: Storage): void {
  try {
    storageOrNull(storage)?.setItem(prefix + key, JSON.stringify(values));
  } catch {
    // Storage may be full or disabled; the form is then filled again after signing in.
  }
}

/**
 * The draft saved under `key`, checked by `parse` (which answers null for anything this page did
 * not write). Anything unreadable gives null.
 */
export function readDraft<T>(key: string, parse: (value: unknown) => T | null, storage?: Storage): T | null {
  let stored: string | null | undefined;
  try {
    stored = storageOrNull(storage)?.getItem(prefix + key);
  } catch {
    return null;
  }
  if (!stored) return null;
  try {
    return parse(JSON.parse(stored));
  } catch {
    return null;
  }
}

export function clearDraft(key: string, storage?: Storage): void {
  try {
    storageOrNull(storage)?.removeItem(prefix + key);
  } catch {
    // Nothing was stored then.
  }
}

/** Whether `value` is a plain object, for the parsers of drafts. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}
