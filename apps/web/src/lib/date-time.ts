/**
 * A date and time in the reader's time zone (or the one given), with the zone named.
 * `dateStyle`/`timeStyle` cannot be combined with `timeZoneName`, so the parts are spelled out.
 */
export function formatDateTime(date: Date, timeZone?: string): string {
  return date.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone ? { timeZone } : {}),
  });
}
