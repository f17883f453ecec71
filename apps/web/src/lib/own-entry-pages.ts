/**
 * Pages built as their own entry (`req.html` for `/req`) rather than as routes of the app: the
 * server sends each its own HTML, so the app reaches them by a full page load.
 */
export const ownEntryPages = ["/req"] as const;

export function isOwnEntryPage(href: string): boolean {
  const path = href.split(/[?#]/, 1)[0];
  return ownEntryPages.some((page) => page === path);
}
