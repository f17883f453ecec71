const allowedProtocols = new Set(["http", "https", "irc", "ircs", "mailto", "xmpp"]);

/** Keeps links with an allowed protocol or none (relative); blanks every other link. */
export function safeUrl(url: string): string {
  const colon = url.indexOf(":");
  const firstDelimiter = url.search(/[/?#]/);
  // A colon after the first slash, question mark or hash belongs to the path, not a protocol.
  if (colon === -1 || (firstDelimiter !== -1 && colon > firstDelimiter)) return url;
  return allowedProtocols.has(url.slice(0, colon).toLowerCase()) ? url : "";
}
