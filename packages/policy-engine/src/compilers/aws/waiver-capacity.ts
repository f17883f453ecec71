import type { CompileBundleInput } from "../compile-input";
import { compileScp } from "./compile-scp";
import { packScps, type ScpLimits } from "./pack-scps";

/** The most waivers counted; capacity beyond it is reported as this bound. */
export const MAX_COUNTED_WAIVERS = 400;

/**
 * How many waivers, each for another principal, a guardrail alone in its packed SCP can carry under
 * the character quota, when the i-th waiver (from 0) ends at `endOf(i)`. Counts up from one and
 * stops at the first count that no longer fits.
 */
export function principalWaiverCapacity(
  input: Omit<CompileBundleInput, "waivers">,
  limits: ScpLimits,
  endOf: (index: number) => Date,
  account = "111122223333",
): number {
  const waivers = [];
  for (let count = 1; count <= MAX_COUNTED_WAIVERS; count++) {
    waivers.push({
      id: `w${count}`,
      key: input.key,
      expiresAt: endOf(count - 1),
      principalArn: `arn:aws:iam::${account}:role/waiver-${String(count).padStart(3, "0")}`,
    });
    const content = compileScp({ ...input, waivers, scpMaxCharacters: Number.MAX_SAFE_INTEGER }).content;
    const packed = packScps({
      target: input.scopes[0]?.id ?? "r-ab12",
      guardrails: [{ key: input.key, slug: input.definition.slug, content }],
      limits,
      foreign: 0,
    });
    if (packed.unplaced.length > 0) return count - 1;
  }
  return MAX_COUNTED_WAIVERS;
}
