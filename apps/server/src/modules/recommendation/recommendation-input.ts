import { CloudProvider, type Scope } from "@palisade/api/gen/palisade/common/v1/common_pb";
import { providerOfEnforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import type { Database } from "../../db/database";
import { type FieldProblem, invalidArgument } from "../../rpc/errors";
import { findHierarchyNodes } from "../connector/connector-api";
import type { TenantCatalogue } from "../policy-definition/policy-definition-api";
import type { FindingScope, Provider } from "./recommendation-rules";

export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 5000;

export interface RecommendationInput {
  title: string;
  description: string;
  provider: Provider;
  policySlugs: string[];
  scopes: FindingScope[];
}

const PROVIDER_NAME = { aws: "AWS", azure: "Azure" } as const;

/**
 * A recommendation as a member typed it, every problem answered at once and beside its field:
 * title 1 to 120 characters, description (Markdown) at most 5,000, at least one policy of the
 * catalogue, every policy and scope of the chosen cloud.
 */
export async function readRecommendationInput(
  db: Database,
  tenantId: string,
  view: TenantCatalogue,
  request: {
    title: string;
    description: string;
    provider: CloudProvider;
    policySlugs: readonly string[];
    scopes: readonly Scope[];
  },
): Promise<RecommendationInput> {
  const problems: FieldProblem[] = [];
  const title = request.title.trim();
  const description = request.description.trim();
  if (!title) problems.push({ field: "title", message: "give the recommendation a title." });
  else if (title.length > TITLE_MAX)
    problems.push({
      field: "title",
      message: `at most ${TITLE_MAX} characters (this one has ${title.length}).`,
    });
  if (description.length > DESCRIPTION_MAX)
    problems.push({
      field: "description",
      message: `at most ${DESCRIPTION_MAX.toLocaleString("en")} characters (this one has ${description.length.toLocaleString("en")}).`,
    });
  const provider: Provider | undefined =
    request.provider === CloudProvider.AWS
      ? "aws"
      : request.provider === CloudProvider.AZURE
        ? "azure"
        : undefined;
  if (!provider) problems.push({ field: "provider", message: "choose AWS or Azure." });

  const slugs = [...new Set(request.policySlugs.map((s) => s.trim()).filter(Boolean))];
  if (slugs.length === 0) problems.push({ field: "policy_slugs", message: "name at least one policy." });
  for (const slug of slugs) {
    const definition = view.bySlug.get(slug)?.definition;
    if (!definition) {
      problems.push({
        field: "policy_slugs",
        message: `"${slug.slice(0, 128)}" is not a policy of the catalogue; check its spelling on the Policies page.`,
      });
      continue;
    }
    const of: Provider = providerOfEnforcer(definition.enforcer);
    if (provider && of !== provider)
      problems.push({
        field: "policy_slugs",
        message: `${definition.display_name} (${slug}) is an ${PROVIDER_NAME[of]} policy; a recommendation names policies of one cloud (${PROVIDER_NAME[provider]}).`,
      });
  }

  const nodes = await findHierarchyNodes(
    db,
    tenantId,
    request.scopes.map((s) => s.externalId.trim()),
  );
  const scopes: FindingScope[] = [];
  request.scopes.forEach((scope, index) => {
    const node = nodes.find((n) => n.externalId === scope.externalId.trim());
    if (!node) {
      problems.push({
        field: `scopes[${index}]`,
        message: `${scope.externalId.slice(0, 200)} is not a scope of a connected cloud; sync the connector or pick another scope.`,
      });
      return;
    }
    if (provider && node.provider !== provider) {
      problems.push({
        field: `scopes[${index}]`,
        message: `${node.name} is not an ${PROVIDER_NAME[provider]} scope.`,
      });
      return;
    }
    if (!scopes.some((s) => s.externalId === node.externalId))
      scopes.push({ externalId: node.externalId, name: node.name, type: node.type });
  });

  if (problems.length > 0 || !provider)
    throw invalidArgument(problems.map((p) => `${p.field}: ${p.message}`).join(" "), problems);
  return { title, description, provider, policySlugs: slugs, scopes };
}
