/** Covered clauses as a whole percentage of all clauses; an initiative without clauses has none. */
export function coveragePercent(initiative: { clausesCount: number; coveredClausesCount: number }): number {
  if (initiative.clausesCount === 0) return 0;
  return Math.round((initiative.coveredClausesCount * 100) / initiative.clausesCount);
}
