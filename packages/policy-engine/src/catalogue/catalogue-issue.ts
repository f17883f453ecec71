import type { z } from "zod";

export type PathPart = string | number;

export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

export interface Issue {
  path: PathPart[];
  message: string;
}

/** Unknown keys are reported at the key itself, so the path points at the line to delete. */
export function describeIssue(issue: z.core.$ZodIssue): Issue {
  if (issue.code === "unrecognized_keys") {
    return {
      path: [...(issue.path as PathPart[]), issue.keys[0]!],
      message: `unknown field (allowed fields are listed in docs/catalogue.md)`,
    };
  }
  return { path: issue.path as PathPart[], message: issue.message };
}
