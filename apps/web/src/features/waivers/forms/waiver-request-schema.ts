import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import * as z from "zod/mini";

export const commentMaxLength = 220;
export const durationHours = { min: 1, max: 72, default: 24, step: 1 } as const;

const policyKeySchema = z.string().check(
  z.trim(),
  z.minLength(1, "Policy key is required"),
  z.refine(
    (key: string) => key.length === 0 || key.length === POLICY_KEY_LENGTH,
    `Key must be ${POLICY_KEY_LENGTH} characters long`,
  ),
);

export const waiverRequestSchema = z.object({
  policyKey: policyKeySchema,
  duration: z.int().check(z.minimum(durationHours.min), z.maximum(durationHours.max)),
  comment: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Comment is required"),
      z.maxLength(commentMaxLength, "Comment must not exceed 220 characters"),
    ),
  /** An account, subscription or resource group id; empty for every scope of the policy. */
  scope: z.string().check(z.maxLength(2048)),
});

export type WaiverRequestValues = z.infer<typeof waiverRequestSchema>;

export function isValidPolicyKey(key: string): boolean {
  return policyKeySchema.safeParse(key).success;
}

/** The server takes the duration in seconds. */
export function durationSeconds(hours: number): bigint {
  return BigInt(hours * 3600);
}

export function hoursLabel(hours: number): string {
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

export type WaiverField = keyof WaiverRequestValues;

/** The first message per field, or nothing when the form is valid. */
export function waiverRequestErrors(values: WaiverRequestValues): Partial<Record<WaiverField, string>> {
  const result = waiverRequestSchema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<WaiverField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as WaiverField;
    errors[field] ??= issue.message;
  }
  return errors;
}
