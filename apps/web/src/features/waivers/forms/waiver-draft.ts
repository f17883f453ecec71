import { durationHours, type WaiverRequestValues } from "./waiver-request-schema";

const draftStorageKey = "palisade.waiver-request-draft";

/**
 * The form as it was when a signed-out visitor pressed Submit, read back once they return from
 * signing in. Anything that is not a draft this page wrote gives nothing.
 */
export function parseWaiverDraft(stored: string | null): WaiverRequestValues | null {
  if (!stored) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const { policyKey, duration, comment, scope } = value as Record<string, unknown>;
  if (typeof policyKey !== "string" || typeof comment !== "string" || typeof duration !== "number")
    return null;
  const hours = Number.isInteger(duration)
    ? Math.min(durationHours.max, Math.max(durationHours.min, duration))
    : durationHours.default;
  return { policyKey, duration: hours, comment, scope: typeof scope === "string" ? scope : "" };
}

export function saveWaiverDraft(values: WaiverRequestValues, storage: Storage = sessionStorage): void {
  try {
    storage.setItem(draftStorageKey, JSON.stringify(values));
  } catch {
    // Storage may be full or disabled; the visitor then fills the form again after signing in.
  }
}

export function readWaiverDraft(storage: Storage = sessionStorage): WaiverRequestValues | null {
  try {
    return parseWaiverDraft(storage.getItem(draftStorageKey));
  } catch {
    return null;
  }
}

export function clearWaiverDraft(storage: Storage = sessionStorage): void {
  try {
    storage.removeItem(draftStorageKey);
  } catch {
    // Nothing was stored then.
  }
}
