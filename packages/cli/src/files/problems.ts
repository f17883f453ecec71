/** One problem with one file, named as a reviewer finds it: file, line and field. */
export interface Problem {
  file: string;
  /** 1-based; 0 when the problem concerns no line (a missing file). */
  line: number;
  /** The field's path in the file ("parameters.port", "scopes[1]"); empty for the whole file. */
  field: string;
  message: string;
}

export function formatProblem(problem: Problem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}: ${problem.field ? `${problem.field}: ` : ""}${problem.message}`;
}

export function fieldPath(path: readonly (string | number | symbol)[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`))
    .join("");
}
