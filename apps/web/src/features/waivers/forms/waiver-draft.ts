import { clearDraft, isRecord, readDraft, saveDraft } from "@/lib/form-draft";
import { durationHours, type WaiverRequestValues } from "./waiver-request-schema";

const draftKey = "/req";

/**
 * What the form starts with: the draft, where the address names no other key; the address's key
 * with the draft's duration and reason otherwise (the scope belongs to the draft's key only).
 */
export function draftWithKey(
  draft: WaiverRequestValues | null,
  addressKey: string,
): { policyKey: string } & Partial<WaiverRequestValues> {
  if (!draft) return { policyKey: addressKey };
  if (!addressKey || addressKey.toUpperCase() === draft.policyKey.trim().toUpperCase()) return draft;
  return { ...draft, policyKey: addressKey, scope: "" };
}

/**
 * The form as it was before a reload, or when a signed-out visitor pressed Submit, read back once they return from
 * signing in. Anything that is not a draft this page wrote gives nothing.
 */
export function parseWaiverDraft(value: unknown): WaiverRequestValues | null {
  if (!isRecord(value)) return null;
  const { policyKey, duration, comment, scope } = value;
  if (typeof policyKey !== "string" || typeof comment !== "string" || typeof duration !== "number")
    return null;
  const hours = Number.isInteger(duration)
    ? Math.min(durationHours.max, Math.max(durationHours.min, duration))
    : durationHours.default;
  return { policyKey, duration: hours, comment, scope: typeof scope === "string" ? scope : "" };
}

export function saveWaiverDraft(values: WaiverRequestValues, storage?: Storage): void {
  saveDraft(draftKey, values, storage);
}

export function readWaiverDraft(storage?: Storage): WaiverRequestValues | null {
  return readDraft(draftKey, parseWaiverDraft, storage);
}

export function clearWaiverDraft(storage?: Storage): void {
  clearDraft(draftKey, storage);
}
