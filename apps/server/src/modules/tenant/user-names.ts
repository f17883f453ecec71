/**
 * Splits a display name into given and family name: the last word is the family name.
 * A single word is a given name only.
 */
export function splitName(name: string): { givenName: string; familyName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { givenName: words[0] ?? "", familyName: "" };
  return { givenName: words.slice(0, -1).join(" "), familyName: words.at(-1) ?? "" };
}
