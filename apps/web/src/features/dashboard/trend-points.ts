import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";

export interface TrendPoint {
  day: string;
  /** Null on a day with nothing observed: the chart leaves a gap instead of drawing a zero. */
  compliant: number | null;
  nonCompliant: number | null;
}

/** Chart rows from the service's daily points, labelled by UTC day; points without a time are dropped. */
export function trendPoints(
  points: readonly { time?: Timestamp; totals?: { compliant: number; nonCompliant: number } }[],
): TrendPoint[] {
  return points.flatMap((point) => {
    if (!point.time) return [];
    const compliant = point.totals?.compliant ?? 0;
    const nonCompliant = point.totals?.nonCompliant ?? 0;
    const observed = compliant + nonCompliant > 0;
    return [
      {
        day: timestampDate(point.time).toISOString().slice(0, 10),
        compliant: observed ? compliant : null,
        nonCompliant: observed ? nonCompliant : null,
      },
    ];
  });
}

/** Share of compliant resources as a whole percentage; nothing observed reads as no value. */
export function compliancePercent(
  totals: { compliant: number; nonCompliant: number } | undefined,
): number | null {
  const all = (totals?.compliant ?? 0) + (totals?.nonCompliant ?? 0);
  return all === 0 ? null : Math.round(((totals?.compliant ?? 0) * 100) / all);
}

/** What the current figure is made of: how many resources, and the first and last day with data. */
export function trendFigure(
  points: readonly TrendPoint[],
  overall: { compliant: number; nonCompliant: number } | undefined,
) {
  const observed = points.filter((p) => p.compliant !== null);
  return {
    percent: compliancePercent(overall),
    compliant: overall?.compliant ?? 0,
    resources: (overall?.compliant ?? 0) + (overall?.nonCompliant ?? 0),
    firstDay: observed[0]?.day,
    lastDay: observed.at(-1)?.day,
    gaps: points.length - observed.length,
  };
}
