import type { EnsureQueryDataOptions, QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * A route loader's part: the page's main query is in the cache before the page shows. A failure is
 * not thrown, so the page shows it in place as it does for any later failure of the same query.
 */
export async function loadPageData<Data, Error, Key extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<Data, Error, Data, Key>,
): Promise<void> {
  try {
    await queryClient.ensureQueryData(options);
  } catch {
    // The page's own query reports it.
  }
}
