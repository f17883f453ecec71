import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";
import * as z from "zod/mini";
import { stringish } from "@/lib/search-params";

export const waiverRequestSearchSchema = z.object({
  k: z.catch(z.optional(stringish), undefined),
});

/** The key a link carries, cut to the length of a policy key. */
export function prefilledPolicyKey(k: string | undefined): string {
  return (k ?? "").trim().slice(0, POLICY_KEY_LENGTH);
}
