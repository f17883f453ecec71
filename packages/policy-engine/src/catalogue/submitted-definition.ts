import { z } from "zod";
import { describeIssue, formatFieldPath, type Issue } from "./catalogue-issue";
import { definitionIssues } from "./definition-issues";
import {
  awsCaseSchema,
  awsDeclarativeCaseSchema,
  awsDeclarativeDefinitionSchema,
  awsDefinitionSchema,
  awsRcpDefinitionSchema,
  azureCaseSchema,
  azureDefinitionSchema,
  type Definition,
} from "./definition-schema";
import type { AliasFile, Framework } from "./framework-schema";
import { findCycle, referenceIssues, unusedParameterIssues } from "./reference-issues";

/**
 * A definition written through the API follows the catalogue's rules, except that it may come
 * without test cases: the contract has no field for them.
 */
const submittedDefinitionSchema = z.discriminatedUnion("enforcer", [
  awsDefinitionSchema.extend({ cases: z.array(awsCaseSchema).default([]) }),
  awsDeclarativeDefinitionSchema.extend({ cases: z.array(awsDeclarativeCaseSchema).default([]) }),
  awsRcpDefinitionSchema.extend({ cases: z.array(awsCaseSchema).default([]) }),
  azureDefinitionSchema.extend({ cases: z.array(azureCaseSchema).default([]) }),
]);

export interface DefinitionProblem {
  /** Field path in the catalogue's snake_case names, e.g. `parameter_definitions[0].type`. */
  field: string;
  message: string;
}

export type SubmittedDefinitionResult =
  | { ok: true; definition: Definition }
  | { ok: false; problems: DefinitionProblem[] };

export interface SubmissionContext {
  frameworks: readonly Framework[];
  aliases: AliasFile;
  /** Every definition the submitted one may refer to; an entry with its own slug is replaced. */
  definitions: ReadonlyMap<string, Definition>;
}

function problems(issues: Issue[]): SubmittedDefinitionResult {
  return {
    ok: false,
    problems: issues.map((issue) => ({ field: formatFieldPath(issue.path), message: issue.message })),
  };
}

/**
 * Checks a definition that does not come from a catalogue file (a tenant's own, or its upgrade of
 * a catalogue definition) with the same schema and rules as parseCatalogue: frameworks and their
 * clauses, Azure aliases, parameters, references to other definitions and cycles.
 */
export function parseSubmittedDefinition(
  value: unknown,
  context: SubmissionContext,
): SubmittedDefinitionResult {
  const parsed = submittedDefinitionSchema.safeParse(value);
  if (!parsed.success) return problems(parsed.error.issues.map(describeIssue));
  const definition: Definition = parsed.data;

  const frameworks = new Map(context.frameworks.map((framework) => [framework.id, framework]));
  const aliasNames = new Set(Object.values(context.aliases).flatMap((entries) => Object.keys(entries)));
  const ownIssues = definitionIssues(definition, frameworks, aliasNames, { requireCases: false });
  if (ownIssues.length > 0) return problems(ownIssues);

  const bySlug = new Map(context.definitions);
  bySlug.set(definition.slug, definition);
  const linkIssues = [...referenceIssues(definition, bySlug), ...unusedParameterIssues(definition, bySlug)];
  if (linkIssues.length > 0) return problems(linkIssues);
  const cycle = findCycle(definition, bySlug);
  if (cycle) return problems([{ path: ["tree"], message: `policy_reference cycle: ${cycle.join(" -> ")}` }]);
  return { ok: true, definition };
}
