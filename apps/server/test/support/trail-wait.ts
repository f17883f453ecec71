import { waitFor } from "./poll";

/**
 * CloudTrail delivers a call's log file minutes later, and the test sandbox about a second later
 * (SANDBOX_TRAIL_DELAY_SECONDS=1): a test fetches again until what it expects has arrived, then
 * asserts on it. A fetch that never brings it fails with what it had.
 */
export async function fetchUntil<T>(
  fetchAndRead: () => Promise<T[]>,
  arrived: (items: T[]) => boolean = (items) => items.length > 0,
  timeoutMs = 20_000,
): Promise<T[]> {
  return waitFor("the trail's records to arrive", fetchAndRead, arrived, timeoutMs);
}
