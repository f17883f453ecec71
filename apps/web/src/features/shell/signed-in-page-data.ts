import { isSessionData, type SessionData } from "@/lib/auth-context";
import { pageDataBlock, readPageDataBlock } from "@/lib/page-data-block";

/**
 * What the server rendered a signed-in page with (app-server.tsx), written into the page beside its
 * HTML so that the browser's first render is the same page: the visitor's session and the answers
 * of the page's first reads, by procedure (see first-reads.ts).
 */
export interface SignedInPageData {
  session: SessionData;
  reads: Record<string, unknown>;
}

/** The element (a JSON data block, never run) that carries the data. */
const SIGNED_IN_PAGE_DATA_ID = "signed-in-page-data";

export function signedInPageDataScript(data: SignedInPageData): string {
  return pageDataBlock(SIGNED_IN_PAGE_DATA_ID, data);
}

/** The data the server rendered this page with, or null for a page the browser renders alone. */
export function readSignedInPageData(doc: Document = document): SignedInPageData | null {
  const data = readPageDataBlock(SIGNED_IN_PAGE_DATA_ID, doc);
  if (!data || !isSessionData(data.session) || !data.reads || typeof data.reads !== "object") return null;
  return { session: data.session, reads: data.reads as Record<string, unknown> };
}
