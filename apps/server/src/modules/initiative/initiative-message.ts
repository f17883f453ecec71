import { create } from "@bufbuild/protobuf";
import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type Initiative as InitiativeMessage,
  InitiativeSchema,
  type InitiativeScope,
  InitiativeScopeSchema,
} from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { PolicyDefinitionState } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { Initiative } from "@palisade/policy-engine/catalogue/initiatives";
import type { PolicyScopeRow } from "../deployment/deployment-api";
import { providerOfEnforcer, type TenantCatalogue } from "../policy-definition/policy-definition-api";
import type { Framework } from "./tenant-initiatives";

/** An initiative with what the tenant has installed of it; clauses only for the detail view. */
export function initiativeMessage(
  initiative: Initiative,
  view: TenantCatalogue,
  framework: Framework | undefined,
  withClauses: boolean,
): InitiativeMessage {
  const installed = (slug: string) =>
    (view.bySlug.get(slug)?.state ?? PolicyDefinitionState.NOT_INSTALLED) !==
    PolicyDefinitionState.NOT_INSTALLED;
  const clauses = initiative.clauses.map((clause) => ({
    id: clause.id,
    title: clause.title,
    policySlugs: clause.definitionSlugs,
    covered: clause.definitionSlugs.length > 0,
    installed: clause.definitionSlugs.some(installed),
  }));
  const providers = new Set(
    initiative.definitionSlugs.flatMap((slug) => {
      const enforcer = view.bySlug.get(slug)?.definition.enforcer;
      return enforcer ? [providerOfEnforcer(enforcer)] : [];
    }),
  );
  return create(InitiativeSchema, {
    // One initiative per framework: its id is the framework id, as is its slug.
    id: initiative.slug,
    slug: initiative.slug,
    name: initiative.name,
    frameworkName: framework?.name ?? initiative.name,
    frameworkVersion: initiative.version,
    description: initiative.description,
    clauses: withClauses ? clauses : [],
    clausesCount: initiative.coverage.totalClauses,
    coveredClausesCount: initiative.coverage.coveredClauses,
    installedClausesCount: clauses.filter((clause) => clause.installed).length,
    policiesCount: initiative.definitionSlugs.length,
    installedPoliciesCount: initiative.definitionSlugs.filter(installed).length,
    providers: [CloudProvider.AZURE, CloudProvider.AWS].filter((provider) => providers.has(provider)),
  });
}

/** Where the initiative's policies are deployed: each scope with how many of them, most first. */
export function deployedScopes(live: readonly PolicyScopeRow[]): InitiativeScope[] {
  const byScope = new Map<string, { scope: PolicyScopeRow["scope"]; slugs: Set<string> }>();
  for (const row of live) {
    const entry = byScope.get(row.scope.externalId) ?? { scope: row.scope, slugs: new Set<string>() };
    entry.slugs.add(row.policySlug);
    byScope.set(row.scope.externalId, entry);
  }
  return [...byScope.values()]
    .sort((a, b) => b.slugs.size - a.slugs.size || a.scope.name.localeCompare(b.scope.name))
    .map(({ scope, slugs }) =>
      create(InitiativeScopeSchema, {
        externalId: scope.externalId,
        name: scope.name,
        provider: scope.provider === "aws" ? CloudProvider.AWS : CloudProvider.AZURE,
        policiesCount: slugs.size,
      }),
    );
}
