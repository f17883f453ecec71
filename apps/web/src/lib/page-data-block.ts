/**
 * The data a server-rendered page was rendered with, written into the page beside its HTML as a
 * JSON data block (an element never run as script), so that the browser's first render is the
 * same page as the server's.
 */

/** The block as the page's HTML: `<` escaped, so no text in it can end the element. */
export function pageDataBlock(id: string, data: unknown): string {
  const json = JSON.stringify(data).replaceAll("<", "\\u003c");
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** The block's data when it is an object, or null for a page the browser renders alone. */
export function readPageDataBlock(id: string, doc: Document = document): Record<string, unknown> | null {
  const text = doc.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    const data: unknown = JSON.parse(text);
    return data && typeof data === "object" && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
