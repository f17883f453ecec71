import { coveragePercent } from "../coverage";

function Bar({ covered, total, label }: { covered: number; total: number; label: string }) {
  const percent = coveragePercent({ clausesCount: total, coveredClausesCount: covered });
  return (
    <div className="space-y-1">
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label={label}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground tabular-nums">
        {covered} of {total} {label.toLowerCase()} ({percent}%)
      </p>
    </div>
  );
}

/**
 * Two measures of an initiative: the clauses the catalogue has policies for, and the clauses the
 * tenant's deployed policies actually cover.
 */
export function CoverageBar({
  initiative,
}: {
  initiative: { clausesCount: number; coveredClausesCount: number; installedClausesCount: number };
}) {
  return (
    <div className="space-y-2">
      <Bar
        covered={initiative.installedClausesCount}
        total={initiative.clausesCount}
        label="Clauses covered by what is deployed"
      />
      <Bar
        covered={initiative.coveredClausesCount}
        total={initiative.clausesCount}
        label="Clauses covered by the catalogue"
      />
    </div>
  );
}
