/** At most this many waiver requester domains per tenant. */
export const MAX_REQUESTER_DOMAINS = 50;
const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name of at least two labels (example.com, eu.example.com); no wildcards, no addresses. */
export function isDomainName(domain: string): boolean {
  if (domain.length > MAX_DOMAIN_LENGTH) return false;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  // The last label is a top-level domain: letters (or an IDN's punycode), never all digits.
  return /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels.at(-1) ?? "");
}

/**
 * The domains as the settings page sends them: trimmed, lower case, a leading "@" dropped,
 * duplicates removed. Says what is wrong with the first bad entry instead.
 */
export function parseRequesterDomains(
  raw: readonly string[],
): { ok: true; domains: string[] } | { ok: false; message: string } {
  const domains: string[] = [];
  for (const entry of raw) {
    const domain = entry.trim().toLowerCase().replace(/^@/, "");
    if (!domain) continue;
    if (!isDomainName(domain)) {
      const shown = entry.length > 60 ? `${entry.slice(0, 60)}…` : entry;
      return {
        ok: false,
        message: `"${shown}" is not an e-mail domain; write it like example.com, without a user name or wildcard.`,
      };
    }
    if (!domains.includes(domain)) domains.push(domain);
  }
  if (domains.length > MAX_REQUESTER_DOMAINS) {
    return { ok: false, message: `List at most ${MAX_REQUESTER_DOMAINS} waiver requester domains.` };
  }
  return { ok: true, domains };
}

/** Whether the address's domain is one of the tenant's requester domains (exactly, not a subdomain). */
export function inRequesterDomains(email: string, domains: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domain.length > 0 && domains.includes(domain);
}
