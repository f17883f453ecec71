/** The nearest-rank percentile of values sorted in ascending order; `empty` when there are none. */
export function percentile(sorted: readonly number[], q: number, empty = 0): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? empty;
}

/** p50, p95 and the maximum of unsorted timings. */
export function timingSummary(values: readonly number[]): { p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) ?? 0 };
}
