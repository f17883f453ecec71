/** A page's path as its route names it: without a trailing slash, except the root's own. */
export function pagePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}
