import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";

export interface TrendPoint {
  day: string;
  compliant: number;
  nonCompliant: number;
}

/** Chart rows from the service's daily points, labelled by UTC day; points without a time are dropped. */
export function trendPoints(
  points: readonly { time?: Timestamp; totals?: { compliant: number; nonCompliant: number } }[],
): TrendPoint[] {
  return points.flatMap((point) =>
    point.time
      ? [
          {
            day: timestampDate(point.time).toISOString().slice(0, 10),
            compliant: point.totals?.compliant ?? 0,
            nonCompliant: point.totals?.nonCompliant ?? 0,
          },
        ]
      : [],
  );
}

/** Share of compliant resources as a whole percentage; nothing observed reads as no value. */
export function compliancePercent(
  totals: { compliant: number; nonCompliant: number } | undefined,
): number | null {
  const all = (totals?.compliant ?? 0) + (totals?.nonCompliant ?? 0);
  return all === 0 ? null : Math.round(((totals?.compliant ?? 0) * 100) / all);
}
