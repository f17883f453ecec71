/** At most this many, as the server accepts. */
export const MAX_REQUESTER_DOMAINS = 50;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The same check as the server's: a host name of two labels or more, no wildcard. */
function isDomainName(domain: string): boolean {
  if (domain.length > 253) return false;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels.at(-1) ?? "");
}

/** The domains typed one a line (or separated by commas or spaces), or what is wrong with them. */
export function parseDomainList(text: string): { domains: string[]; problem?: string } {
  const domains: string[] = [];
  for (const entry of text.split(/[\s,;]+/)) {
    const domain = entry.trim().toLowerCase().replace(/^@/, "");
    if (!domain) continue;
    if (!isDomainName(domain)) {
      const shown = entry.length > 60 ? `${entry.slice(0, 60)}…` : entry;
      return {
        domains,
        problem: `"${shown}" is not an e-mail domain; write it like example.com, without a user name or wildcard.`,
      };
    }
    if (!domains.includes(domain)) domains.push(domain);
  }
  if (domains.length > MAX_REQUESTER_DOMAINS) {
    return { domains, problem: `List at most ${MAX_REQUESTER_DOMAINS} waiver requester domains.` };
  }
  return { domains };
}
