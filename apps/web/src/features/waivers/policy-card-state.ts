import { POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";

export type LookupStatus = "idle" | "pending" | "error" | "success";

export type PolicyCardState =
  | { kind: "empty" }
  | { kind: "keep-typing"; length: number }
  | { kind: "loading" }
  | { kind: "invalid-format"; length: number }
  | { kind: "not-found" }
  | { kind: "connection-error" }
  | { kind: "found" };

const connectionErrorPattern = /network|fetch|connection|unavailable|timeout/i;

/**
 * What the policy card shows for the key as typed. `typing` is true while the debounced key still
 * differs from the typed one.
 */
export function policyCardState(input: {
  key: string;
  typing: boolean;
  status: LookupStatus;
  found: boolean;
  errorMessage?: string;
}): PolicyCardState {
  const length = input.key.trim().length;
  if (length === 0) return { kind: "empty" };
  if (length < POLICY_KEY_LENGTH) return { kind: "keep-typing", length };
  // Typing on cannot make a key that is already too long valid: say so at once.
  if (length > POLICY_KEY_LENGTH) return { kind: "invalid-format", length };
  if (input.typing || input.status === "pending" || input.status === "idle") return { kind: "loading" };
  if (input.status === "error") {
    return connectionErrorPattern.test(input.errorMessage ?? "")
      ? { kind: "connection-error" }
      : { kind: "not-found" };
  }
  return input.found ? { kind: "found" } : { kind: "not-found" };
}
