import { appendFileSync } from "node:fs";
import { loadavg } from "node:os";

/** One measured figure, for the combined table that `npm run bench` prints. */
export interface Figure {
  group: string;
  figure: string;
  value: number;
  unit: string;
  /** "max": the value must stay below; "min": at or above. */
  budget?: { kind: "max" | "min"; value: number };
  /** The same-run baseline the value is compared with (ratio = value / baseline). */
  baseline?: { label: string; value: number };
  /** The least value / baseline ratio that passes (ingest: half the rate of COPY). */
  minRatio?: number;
  /** The greatest value / baseline ratio that passes (a page's paint: 3x that of `GET /healthz`). */
  maxRatio?: number;
  /** One-minute load average when the figure was taken. */
  load?: number;
}

/**
 * Appends a figure to the file named by BENCH_RESULTS (one JSON object a line) when the benchmark
 * runs under `npm run bench`; standalone runs print their own tables and ignore it.
 */
export function record(figure: Figure): void {
  const file = process.env.BENCH_RESULTS;
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ ...figure, load: figure.load ?? loadavg()[0] })}\n`);
}

export function passes(figure: Figure): boolean | undefined {
  // A figure that could not be taken (NaN, stored as null) holds no budget.
  if (!Number.isFinite(figure.value)) return figure.budget || hasRatioBudget(figure) ? false : undefined;
  const ratio = figure.baseline ? figure.value / figure.baseline.value : undefined;
  const ratioOk =
    ratio === undefined ||
    ((figure.minRatio === undefined || ratio >= figure.minRatio) &&
      (figure.maxRatio === undefined || ratio <= figure.maxRatio));
  if (!figure.budget) return hasRatioBudget(figure) ? ratioOk : undefined;
  const budgetOk =
    figure.budget.kind === "max" ? figure.value < figure.budget.value : figure.value >= figure.budget.value;
  return budgetOk && ratioOk;
}

function hasRatioBudget(figure: Figure): boolean {
  return figure.minRatio !== undefined || figure.maxRatio !== undefined;
}
