import type { Catalogue } from "./parse-catalogue";

export interface InitiativeClause {
  id: string;
  title: string;
  /** Visible definitions mapped to this clause, sorted by slug. */
  definitionSlugs: string[];
}

export interface Initiative {
  /** Equal to the framework id; definitions list it in initiative_slugs. */
  slug: string;
  name: string;
  version: string;
  description: string;
  /** Every visible definition that belongs to the initiative, sorted by slug. */
  definitionSlugs: string[];
  clauses: InitiativeClause[];
  uncoveredClauses: { id: string; title: string }[];
  coverage: { totalClauses: number; coveredClauses: number; uncoveredClauses: number; definitions: number };
}

/**
 * One initiative per framework, derived from the catalogue: which clauses the visible definitions
 * cover and which no definition addresses yet. Hidden definitions are left out so coverage never
 * counts a guardrail users cannot deploy.
 */
export function deriveInitiatives(catalogue: Catalogue): Initiative[] {
  const visible = catalogue.definitions.filter((definition) => definition.is_visible);
  return catalogue.frameworks.map((framework) => {
    const clauses = framework.clauses.map((clause) => ({
      id: clause.id,
      title: clause.title,
      definitionSlugs: visible
        .filter((definition) =>
          definition.frameworks.some((ref) => ref.name === framework.id && ref.section === clause.id),
        )
        .map((definition) => definition.slug)
        .sort(),
    }));
    const uncovered = clauses
      .filter((clause) => clause.definitionSlugs.length === 0)
      .map(({ id, title }) => ({ id, title }));
    const definitionSlugs = visible
      .filter((definition) => definition.initiative_slugs.includes(framework.id))
      .map((definition) => definition.slug)
      .sort();
    return {
      slug: framework.id,
      name: `${framework.name} ${framework.version}`,
      version: framework.version,
      description: framework.description,
      definitionSlugs,
      clauses,
      uncoveredClauses: uncovered,
      coverage: {
        totalClauses: clauses.length,
        coveredClauses: clauses.length - uncovered.length,
        uncoveredClauses: uncovered.length,
        definitions: definitionSlugs.length,
      },
    };
  });
}
