/** The same rule as the server's, so that the page refuses what the server would refuse. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export interface ParsedAddresses {
  /** Valid addresses, lower-cased, each once, in the order typed. */
  addresses: string[];
  /** One message per invalid entry, in the spec's wording. */
  errors: string[];
}

/** Reads addresses separated by commas, semicolons, spaces or line breaks. */
export function parseEmailAddresses(text: string): ParsedAddresses {
  const addresses: string[] = [];
  const errors: string[] = [];
  for (const entry of text.split(/[\s,;]+/)) {
    if (!entry) continue;
    if (!EMAIL.test(entry)) {
      errors.push(`"${entry}" is not a valid email`);
      continue;
    }
    const address = entry.toLowerCase();
    if (!addresses.includes(address)) addresses.push(address);
  }
  return { addresses, errors };
}
