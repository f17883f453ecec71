/**
 * The password policy: a minimum and maximum length and the character classes a new password
 * must contain. Read by anyone (GET /api/password-policy) and enforced wherever a password is
 * set: sign-up, reset, change and accepting an invitation with a new account.
 */
export const CHARACTER_CLASSES = ["lowercase", "uppercase", "digit", "symbol"] as const;
export type CharacterClass = (typeof CHARACTER_CLASSES)[number];

export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  requiredClasses: CharacterClass[];
}

const CLASS_TESTS: Record<CharacterClass, { test: RegExp; rule: string }> = {
  lowercase: { test: /\p{Ll}/u, rule: "a lowercase letter" },
  uppercase: { test: /\p{Lu}/u, rule: "an uppercase letter" },
  digit: { test: /\p{Nd}/u, rule: "a digit" },
  symbol: { test: /[^\p{L}\p{Nd}]/u, rule: "a symbol or space" },
};

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 10, maxLength: 128, requiredClasses: [] };

/** PASSWORD_REQUIRED_CLASSES: a comma-separated list of lowercase, uppercase, digit and symbol. */
export function parseRequiredClasses(value: string | undefined): CharacterClass[] {
  if (!value?.trim()) return [];
  const classes = value.split(",").map((part) => part.trim().toLowerCase());
  for (const name of classes) {
    if (!(CHARACTER_CLASSES as readonly string[]).includes(name))
      throw new Error(`PASSWORD_REQUIRED_CLASSES: "${name}" is not one of ${CHARACTER_CLASSES.join(", ")}`);
  }
  return [...new Set(classes)] as CharacterClass[];
}

/** The first rule the password breaks, as a sentence naming it; null when it follows the policy. */
export function passwordProblem(policy: PasswordPolicy, password: string): string | null {
  if (password.length < policy.minLength)
    return `Password must be at least ${policy.minLength} characters long`;
  if (password.length > policy.maxLength) return `Password must not exceed ${policy.maxLength} characters`;
  const missing = policy.requiredClasses.filter((name) => !CLASS_TESTS[name].test.test(password));
  if (missing.length === 0) return null;
  return `Password must contain ${missing.map((name) => CLASS_TESTS[name].rule).join(", ")}`;
}
