import type { SessionData } from "@/lib/auth-context";
import { pageDataBlock, readPageDataBlock } from "@/lib/page-data-block";
import { displayName } from "@/lib/user-display";
import type { BundleByKeyJson, DefinitionBySlugJson } from "./api/waiver-rpc";

/**
 * What the server rendered the public waiver page with, written into the page beside its HTML so
 * that the browser's first render is the same page: the visitor's name, and the policy of the key
 * in the address with its definition when the key was found.
 */
export interface WaiverPageData {
  userName: string | null;
  bundle?: BundleByKeyJson;
  definition?: DefinitionBySlugJson;
}

/** The element (a JSON data block, never run) that carries the data. */
export const WAIVER_PAGE_DATA_ID = "waiver-page-data";

/** The name the page greets a signed-in visitor by: their name, or their address without one. */
export function userNameOf(session: SessionData | null): string | null {
  return session ? displayName({ name: session.user.name }) || session.user.email : null;
}

/** The data block as the page's HTML. */
export function waiverPageDataScript(data: WaiverPageData): string {
  return pageDataBlock(WAIVER_PAGE_DATA_ID, data);
}

/** The data the server rendered this page with, or null for a page the browser renders alone. */
export function readWaiverPageData(doc: Document = document): WaiverPageData | null {
  const data = readPageDataBlock(WAIVER_PAGE_DATA_ID, doc);
  return data && "userName" in data ? (data as unknown as WaiverPageData) : null;
}
