import { z } from "zod";

/**
 * The router JSON-parses search values, so `?policyId=123` arrives as the number 123; ids and keys are
 * strings whatever they look like.
 */
export const stringish = z.union([z.string(), z.number()]).transform(String);

/** An optional string that falls back to absent when the link carries something else. */
export const optionalString = stringish.optional().catch(undefined);

/** A list parameter: `?scope=a` means `["a"]`; an unusable value means no filter. */
export function listOf<T extends z.ZodType>(item: T) {
  return z
    .preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item))
    .optional()
    .catch(undefined);
}
