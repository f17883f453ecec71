// When a failed read is asked again: the query client's rule, which the public waiver page's reads follow too.

export const maxReadRetries = 2;

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

// Answers that asking again cannot change: Connect codes as numbers (ConnectError) and as wire names.
const finalCodes = new Set<number | string>([
  3,
  5,
  6,
  7,
  9,
  11,
  12,
  16,
  "invalid_argument",
  "not_found",
  "already_exists",
  "permission_denied",
  "failed_precondition",
  "out_of_range",
  "unimplemented",
  "unauthenticated",
]);

/** Reads are retried twice, except when the server gave an answer that another try cannot change. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= maxReadRetries) return false;
  const code = error && typeof error === "object" && "code" in error ? error.code : undefined;
  return !(typeof code === "number" || typeof code === "string") || !finalCodes.has(code);
}
