const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The step a waiver's end is rounded up to. Every distinct end repeats the guardrail's statements
 * in its SCP, so ends must be shared for more than a handful of waivers to fit in 10,240
 * characters. A waiver of up to a day ends on the next full hour (UTC): at most an hour longer
 * than asked, and all waivers requested within the same hour share one window. A longer waiver
 * ends on the next 6-hour boundary (00, 06, 12, 18 UTC): at most a quarter longer than the day it
 * runs, and it shares its window with waivers requested over six hours.
 */
export function waiverWindowStepMs(durationMs: number): number {
  return durationMs > DAY_MS ? 6 * HOUR_MS : HOUR_MS;
}

/** When a waiver starting at `start` for `durationMs` ends: its end rounded up to its window. */
export function waiverWindowEnd(start: Date, durationMs: number): Date {
  const step = waiverWindowStepMs(durationMs);
  return new Date(Math.ceil((start.getTime() + durationMs) / step) * step);
}
