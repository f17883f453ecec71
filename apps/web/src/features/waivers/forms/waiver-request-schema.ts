import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";

/** Characters as a person counts them (grapheme clusters), the bound the server checks too. */
export const commentMaxLength = 220;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** How many characters a person sees in the text: an emoji, even one joined from several, is one. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}
export const durationHours = { min: 1, max: 72, default: 24, step: 1 } as const;
/** An account, subscription or resource group id is at most this long. */
const scopeMaxLength = 2048;

export interface WaiverRequestValues {
  policyKey: string;
  /** Whole hours, `durationHours.min` to `durationHours.max`. */
  duration: number;
  comment: string;
  /** An account, subscription or resource group id; empty for every scope of the policy. */
  scope: string;
}

/** The server takes the duration in seconds. */
export function durationSeconds(hours: number): bigint {
  return BigInt(hours * 3600);
}

export function hoursLabel(hours: number): string {
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

export type WaiverField = keyof WaiverRequestValues;

/**
 * The first message per field, or nothing when the form is valid. The key and the comment are
 * checked as sent, without surrounding spaces. Plain checks rather than a schema library, which
 * would weigh more than the rest of the form on the public page's first load.
 */
export function waiverRequestErrors(values: WaiverRequestValues): Partial<Record<WaiverField, string>> {
  const errors: Partial<Record<WaiverField, string>> = {};
  const key = values.policyKey.trim();
  if (key.length === 0) errors.policyKey = "Policy key is required";
  else if (key.length !== POLICY_KEY_LENGTH)
    errors.policyKey = `Key must be ${POLICY_KEY_LENGTH} characters long`;
  const { duration } = values;
  if (!Number.isInteger(duration) || duration < durationHours.min || duration > durationHours.max)
    errors.duration = `The duration must be ${hoursLabel(durationHours.min)} to ${hoursLabel(durationHours.max)}`;
  const comment = values.comment.trim();
  if (comment.length === 0) errors.comment = "Comment is required";
  else if (characterCount(comment) > commentMaxLength)
    errors.comment = `Comment must not exceed ${commentMaxLength} characters`;
  if (values.scope.length > scopeMaxLength) errors.scope = "The chosen scope's id is too long";
  return errors;
}

/** The request as sent (key and comment trimmed), or null while a field is invalid. */
export function validWaiverRequest(values: WaiverRequestValues): WaiverRequestValues | null {
  if (Object.keys(waiverRequestErrors(values)).length > 0) return null;
  return { ...values, policyKey: values.policyKey.trim(), comment: values.comment.trim() };
}
