/**
 * The one check of a further-reading link: an absolute http or https URL of bounded length. It
 * runs when a definition is created, updated or upgraded, and again when links are shown, so a
 * stored link that would not pass it today (or a catalogue file edited by hand) is never served.
 */
export const READING_URL_MAX_LENGTH = 2048;

/** Why `href` is not an acceptable further-reading link, or undefined when it is. */
export function readingUrlProblem(href: string): string | undefined {
  if (href.length === 0) return "a link needs an address.";
  if (href.length > READING_URL_MAX_LENGTH) return `must be at most ${READING_URL_MAX_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return "is not a URL; give an https:// (or http://) address.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return `only https and http links are allowed, not ${url.protocol.replace(/:$/, "")}.`;
  }
  return undefined;
}

/** The links that pass the check, for showing. */
export function safeReadingUrls<T extends { href: string }>(urls: readonly T[]): T[] {
  return urls.filter((url) => readingUrlProblem(url.href) === undefined);
}
