import { coveragePercent } from "../coverage";

export function CoverageBar({
  initiative,
}: {
  initiative: { clausesCount: number; coveredClausesCount: number };
}) {
  const percent = coveragePercent(initiative);
  return (
    <div className="space-y-1">
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Clauses covered"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground tabular-nums">
        {initiative.coveredClausesCount} of {initiative.clausesCount} clauses covered ({percent}%)
      </p>
    </div>
  );
}
