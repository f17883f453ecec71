import { findPolicyKeyInText, POLICY_KEY_LENGTH } from "@palisade/policy-engine/keys/policy-key";

export type PastedKeyField =
  | { kind: "typed" }
  | { kind: "key"; key: string }
  | { kind: "resolve"; text: string };

/**
 * What a change of the key field holds: a key typed by hand, a deny message that carries the
 * key (Azure's non-compliance message, a waiver link), or an AWS deny naming only the SCP, which
 * the server maps to a key. Short input is always treated as typed.
 */
export function readKeyField(value: string): PastedKeyField {
  if (value.trim().length <= POLICY_KEY_LENGTH) return { kind: "typed" };
  const found = findPolicyKeyInText(value);
  if (found.key) return { kind: "key", key: found.key };
  if (found.scpPolicyIds.length > 0) return { kind: "resolve", text: value };
  return { kind: "typed" };
}

/** The server reads at most this much of a pasted message. */
export const maxDenyMessageLength = 4000;

/**
 * What is sent to the server: the message itself, or, when it is longer than the server reads
 * (an encoded authorization message can be), the part around the first SCP ARN.
 */
export function denyMessageExcerpt(text: string): string {
  if (text.length <= maxDenyMessageLength) return text;
  const scp = text.indexOf("service_control_policy/");
  if (scp < 0) return text.slice(0, maxDenyMessageLength);
  const arn = text.lastIndexOf("arn:aws", scp);
  const start = arn < 0 ? Math.max(0, scp - 200) : arn;
  return text.slice(start, start + maxDenyMessageLength);
}

/** The account or subscription (and resource group) a deny message names, innermost first. */
export interface DenyMessageScope {
  /** What to search the policy's scopes for: the account or subscription id. */
  search: string;
  /** The ids a waiver scope could be, innermost first (resource group, then subscription). */
  candidates: string[];
}

/**
 * The scope a pasted deny message was denied in: the account of the calling principal in an AWS
 * message (arn:aws:sts::<account>:...), the subscription and resource group of an Azure resource id.
 */
export function scopeInDenyMessage(text: string): DenyMessageScope | null {
  const principal = text.match(/arn:aws[\w-]*:(?:sts|iam)::(\d{12}):/);
  if (principal?.[1]) return { search: principal[1], candidates: [principal[1]] };
  const azure = text.match(/\/subscriptions\/([0-9a-f-]{36})(?:\/resourceGroups\/([\w().-]+))?/i);
  if (azure?.[1]) {
    const subscription = `/subscriptions/${azure[1]}`;
    const group = azure[2] ? `${subscription}/resourceGroups/${azure[2].replace(/\.$/, "")}` : null;
    return { search: subscription, candidates: group ? [group, subscription] : [subscription] };
  }
  return null;
}
