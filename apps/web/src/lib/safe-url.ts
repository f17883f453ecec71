const allowedProtocols = new Set(["http", "https", "mailto"]);

/** Keeps http(s) and mailto links and relative ones (within Palisade); blanks every other link. */
export function safeUrl(url: string): string {
  const colon = url.indexOf(":");
  const firstDelimiter = url.search(/[/?#]/);
  // A colon after the first slash, question mark or hash belongs to the path, not a protocol.
  if (colon === -1 || (firstDelimiter !== -1 && colon > firstDelimiter)) return url;
  return allowedProtocols.has(url.slice(0, colon).toLowerCase()) ? url : "";
}
