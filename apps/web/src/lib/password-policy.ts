import { requestTimeoutMs } from "./request-limits";

/** The server's rules for a new password (GET /api/password-policy, no sign-in needed). */
export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  requiredClasses: string[];
}

const CLASS_NAMES: Record<string, string> = {
  lowercase: "a lowercase letter",
  uppercase: "an uppercase letter",
  digit: "a digit",
  symbol: "a symbol or space",
};

export const passwordPolicyQuery = {
  queryKey: ["password-policy"] as const,
  queryFn: async (): Promise<PasswordPolicy> => {
    const response = await fetch("/api/password-policy", { signal: AbortSignal.timeout(requestTimeoutMs) });
    if (!response.ok) throw new Error(`password policy: HTTP ${response.status}`);
    return (await response.json()) as PasswordPolicy;
  },
  staleTime: Number.POSITIVE_INFINITY,
};

/** "At least 10 characters, with an uppercase letter and a digit." */
export function passwordPolicyText(policy: PasswordPolicy): string {
  const classes = policy.requiredClasses.map((name) => CLASS_NAMES[name] ?? name);
  const length = `At least ${policy.minLength} characters`;
  if (classes.length === 0) return `${length}.`;
  const last = classes.at(-1);
  const list = classes.length === 1 ? last : `${classes.slice(0, -1).join(", ")} and ${last}`;
  return `${length}, with ${list}.`;
}
