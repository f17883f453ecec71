/** A page of a list, as repositories read it: 1-based page number, limit and offset, order. */
export interface PageWindow {
  /** 1-based page number. */
  page: number;
  limit: number;
  offset: number;
  /** Lists default to newest first. */
  descending: boolean;
}
