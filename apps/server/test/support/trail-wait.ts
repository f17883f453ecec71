import { readUntil } from "./poll";

/**
 * CloudTrail delivers a call's log file minutes later, and the test sandbox about a second later
 * (SANDBOX_TRAIL_DELAY_SECONDS=1): a test fetches again until what it expects has arrived, then
 * asserts on it. A fetch that never brings it gives what it has, for the assertion to name.
 */
export async function fetchUntil<T>(
  fetchAndRead: () => Promise<T[]>,
  arrived: (items: T[]) => boolean = (items) => items.length > 0,
  timeoutMs = 20_000,
): Promise<T[]> {
  return readUntil(fetchAndRead, arrived, timeoutMs);
}
