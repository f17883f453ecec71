import type { Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { Definition } from "@palisade/policy-engine/catalogue/definition-schema";
import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Initiative } from "@palisade/policy-engine/catalogue/initiatives";
import { validateBundleParameters } from "@palisade/policy-engine/compilers/tree";
import type { Database } from "../../db/database";
import { type FieldProblem, invalidArgument, invalidField } from "../../rpc/errors";
import { findHierarchyNodes } from "../connector/connector-api";
import { liveScopesOfPolicies } from "../deployment/deployment-api";
import type { TenantCatalogue } from "../policy-definition/policy-definition-api";

export const JOB_KIND = "initiative.install";
export const MAX_SCOPES = 100;
const MAX_CLAUSES = 500;
const MAX_SLUGS = 500;
const BUNDLE_NAME_MAX = 120;

/** What the install job's record holds (its `result`). */
export interface InstallRecord {
  initiativeSlug: string;
  bundleIds: string[];
  skipped: { policySlug: string; reason: string }[];
}

export interface PlannedPolicy {
  definition: Definition;
  parameters: Record<string, unknown> | undefined;
  name: string;
}

export interface InstallPlan {
  provider: "aws" | "azure";
  policies: PlannedPolicy[];
  skipped: { policySlug: string; reason: string }[];
}

function bundleName(definition: Definition, initiative: Initiative): string {
  const name = `${definition.display_name} (${initiative.name})`;
  return name.length <= BUNDLE_NAME_MAX ? name : `${name.slice(0, BUNDLE_NAME_MAX - 1)}…`;
}

/**
 * Which policies an install creates bundles for: those of the chosen clauses (every clause when
 * none is chosen), of the scopes' provider, not already deployed to every chosen scope. Every
 * problem of the request (unknown clause, policy or scope, parameters) is answered at once.
 */
export async function planInstall(
  db: Database,
  tenantId: string,
  view: TenantCatalogue,
  initiative: Initiative,
  request: {
    clauseIds: readonly string[];
    policySlugs: readonly string[];
    scopes: readonly Scope[];
    parameters: Readonly<Record<string, Record<string, unknown>>>;
  },
): Promise<InstallPlan> {
  const problems: FieldProblem[] = [];
  if (request.scopes.length === 0) throw invalidField("scopes", "choose at least one scope.");
  if (request.scopes.length > MAX_SCOPES) throw invalidField("scopes", `at most ${MAX_SCOPES}.`);
  if (request.clauseIds.length > MAX_CLAUSES) throw invalidField("clause_ids", `at most ${MAX_CLAUSES}.`);
  if (request.policySlugs.length > MAX_SLUGS) throw invalidField("policy_slugs", `at most ${MAX_SLUGS}.`);

  const nodes = await findHierarchyNodes(
    db,
    tenantId,
    request.scopes.map((s) => s.externalId.trim()),
  );
  const providers = new Set(nodes.map((n) => n.provider));
  request.scopes.forEach((scope, index) => {
    if (!nodes.some((n) => n.externalId === scope.externalId.trim()))
      problems.push({
        field: `scopes[${index}]`,
        message: `${scope.externalId.slice(0, 200)} is not a scope of a connected cloud; sync the connector or pick another scope.`,
      });
  });
  if (providers.size > 1)
    problems.push({ field: "scopes", message: "choose scopes of one cloud: AWS or Azure, not both." });

  const clauses = new Set(request.clauseIds.map((c) => c.trim()));
  for (const id of clauses)
    if (!initiative.clauses.some((c) => c.id === id))
      problems.push({
        field: "clause_ids",
        message: `${initiative.name} has no clause "${id.slice(0, 64)}".`,
      });
  const ofClauses =
    clauses.size === 0
      ? initiative.definitionSlugs
      : [...new Set(initiative.clauses.filter((c) => clauses.has(c.id)).flatMap((c) => c.definitionSlugs))];
  const chosen = new Set(request.policySlugs.map((s) => s.trim()));
  for (const slug of chosen)
    if (!initiative.definitionSlugs.includes(slug))
      problems.push({
        field: "policy_slugs",
        message: `${slug.slice(0, 128)} is not a policy of ${initiative.name}.`,
      });
  const candidates = ofClauses.filter((slug) => chosen.size === 0 || chosen.has(slug)).sort();
  for (const slug of Object.keys(request.parameters))
    if (!candidates.includes(slug))
      problems.push({
        field: `parameters[${slug.slice(0, 128)}]`,
        message: "parameters for a policy this install does not include.",
      });
  if (problems.length > 0)
    throw invalidArgument(problems.map((p) => `${p.field}: ${p.message}`).join(" "), problems);

  const provider = [...providers][0] as "aws" | "azure";
  const wanted = request.scopes.map((s) => s.externalId.trim());
  const live = await liveScopesOfPolicies(db, tenantId, candidates);
  const plan: InstallPlan = { provider, policies: [], skipped: [] };
  for (const slug of candidates) {
    const definition = view.bySlug.get(slug)?.definition;
    if (!definition) continue;
    if (providerOfEnforcer(definition.enforcer) !== provider) {
      plan.skipped.push({
        policySlug: slug,
        reason: `a ${providerOfEnforcer(definition.enforcer).toUpperCase()} policy`,
      });
      continue;
    }
    const deployedTo = new Set(
      live.filter((row) => row.policySlug === slug).map((row) => row.scope.externalId),
    );
    if (wanted.every((id) => deployedTo.has(id))) {
      plan.skipped.push({ policySlug: slug, reason: "already deployed to these scopes" });
      continue;
    }
    const parameters = request.parameters[slug];
    const errors = validateBundleParameters(definition, parameters ?? {});
    for (const error of errors)
      problems.push({
        field: `parameters[${slug}].${error.field.replace(/^parameters\./, "")}`,
        message: `${definition.display_name}: ${error.message}`,
      });
    plan.policies.push({ definition, parameters, name: bundleName(definition, initiative) });
  }
  if (problems.length > 0)
    throw invalidArgument(problems.map((p) => `${p.field}: ${p.message}`).join(" "), problems);
  return plan;
}
