export interface PersonName {
  name?: string;
  givenName?: string;
  familyName?: string;
}

function clean(value: string | undefined): string {
  return (value ?? "").trim();
}

function firstLetter(word: string): string {
  return Array.from(word)[0]?.toUpperCase() ?? "";
}

/** Initials from given and family name, else the first letters of the first two words of the name. */
export function initials(person: PersonName): string {
  const given = clean(person.givenName);
  const family = clean(person.familyName);
  if (given && family) return firstLetter(given) + firstLetter(family);
  const words = clean(person.name).split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map(firstLetter).join("");
}

/** Given and family name, else the name. */
export function displayName(person: PersonName): string {
  const full = [clean(person.givenName), clean(person.familyName)].filter(Boolean).join(" ");
  return full || clean(person.name);
}
