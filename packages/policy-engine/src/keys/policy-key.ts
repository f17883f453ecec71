/** Digits and upper-case letters without I, L, O and U: nothing a reader can mistake for another. */
export const POLICY_KEY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const POLICY_KEY_LENGTH = 7;

const KEY_FORMAT = new RegExp(`^[0-9A-HJKMNP-TV-Z]{${POLICY_KEY_LENGTH}}$`);

/**
 * A new random key. The alphabet has 32 symbols, which divides 256, so keeping the low five bits
 * of each random byte picks every symbol with the same probability (no modulo bias).
 */
export function generatePolicyKey(randomBytes: (n: number) => Uint8Array): string {
  const bytes = randomBytes(POLICY_KEY_LENGTH);
  if (bytes.length < POLICY_KEY_LENGTH)
    throw new Error(`randomBytes returned ${bytes.length} bytes, not ${POLICY_KEY_LENGTH}`);
  let key = "";
  for (let i = 0; i < POLICY_KEY_LENGTH; i++) key += POLICY_KEY_ALPHABET[bytes[i]! & 31];
  return key;
}

/** Keys are matched case-insensitively and are often pasted with surrounding spaces. */
export function normalizePolicyKey(input: string): string {
  return input.trim().toUpperCase();
}

export function isPolicyKeyFormat(input: string): boolean {
  return KEY_FORMAT.test(input);
}

export interface FoundPolicyReferences {
  /** The Palisade key, when the text carries one (Azure non-compliance message, waiver link, resource name). */
  key?: string;
  /** AWS SCP and RCP ids (`p-...`) named in an AccessDenied message; the server maps them to keys. */
  scpPolicyIds: string[];
}

// Places where Palisade itself writes the key: the waiver link (`/req?k=KEY`, possibly JSON-escaped),
// the "policy key KEY" phrase of feedback messages, `palisade-KEY-...` resource names, and the
// "Palisade guardrail KEY" of a declarative policy's short exception_message (EC2 shows it in the
// UnauthorizedOperation it answers).
const KEY_CANDIDATE = `([0-9A-Za-z]{${POLICY_KEY_LENGTH}})(?![0-9A-Za-z])`;
const KEY_CONTEXTS = [
  new RegExp(String.raw`[?&]k(?:=|\\u003[dD])${KEY_CANDIDATE}`, "g"),
  new RegExp(String.raw`policy[ _-]?key\W{0,3}${KEY_CANDIDATE}`, "gi"),
  new RegExp(`palisade-${KEY_CANDIDATE}`, "gi"),
  new RegExp(`Palisade guardrail ${KEY_CANDIDATE}`, "gi"),
];

// SCP and RCP ARNs: arn:aws:organizations::<management account>:policy/o-<org>/service_control_policy/p-<id>
// (resource_control_policy for RCPs, whose denials name them the same way:
// https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_access-denied.html).
const SCP_ARN =
  /arn:aws[a-z-]*:organizations::\d{12}:policy\/o-[a-z0-9]{10,32}\/(?:service|resource)_control_policy\/(p-[0-9a-z]{8,128})/g;

/**
 * Finds what identifies the denying policy in a pasted deny message: an Azure
 * RequestDisallowedByPolicy error (whose non-compliance message carries the key), an AWS
 * AccessDenied error naming the SCP ARN, or just the key itself.
 */
export function findPolicyKeyInText(text: string): FoundPolicyReferences {
  const scpPolicyIds = [...new Set([...text.matchAll(SCP_ARN)].map((match) => match[1]!))];
  const bare = normalizePolicyKey(text);
  if (isPolicyKeyFormat(bare)) return { key: bare, scpPolicyIds };
  for (const pattern of KEY_CONTEXTS) {
    for (const match of text.matchAll(pattern)) {
      const candidate = normalizePolicyKey(match[1]!);
      if (isPolicyKeyFormat(candidate)) return { key: candidate, scpPolicyIds };
    }
  }
  return { scpPolicyIds };
}
