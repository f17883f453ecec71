import * as z from "zod/mini";

/**
 * The router JSON-parses search values, so `?policyId=123` arrives as the number 123; ids and keys are
 * strings whatever they look like.
 */
export const stringish = z.pipe(z.union([z.string(), z.number()]), z.transform(String));

/** An optional string that falls back to absent when the link carries something else. */
export const optionalString = z.catch(z.optional(stringish), undefined);

/** A list parameter: `?scope=a` means `["a"]`; an unusable value means no filter. */
export function listOf<T extends z.ZodMiniType>(item: T) {
  const asList = z.transform((value: unknown) => (Array.isArray(value) ? value : [value]));
  return z.catch(z.optional(z.pipe(asList, z.array(item))), undefined);
}
