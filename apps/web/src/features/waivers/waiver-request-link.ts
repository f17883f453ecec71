import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";

/** The key a link to the waiver page carries (`/req?k=KEY`), cut to the length of a policy key. */
export function prefilledPolicyKey(search: string): string {
  return (new URLSearchParams(search).get("k") ?? "").trim().slice(0, POLICY_KEY_LENGTH);
}
