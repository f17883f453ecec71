import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";

/** How a page's policy address names its bundle: by its policy key, or by its bundle id. */
export function bundleLookup(policyId: string) {
  return policyId.length === POLICY_KEY_LENGTH
    ? ({ case: "key", value: policyId } as const)
    : ({ case: "id", value: policyId } as const);
}
