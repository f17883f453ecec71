import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import type { GetPoliciesFilter } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import {
  Category,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { invalidField } from "../../rpc/errors";
import {
  enforcerOfProvider,
  enumName,
  searchText,
  type TenantDefinition,
} from "../policy-definition/policy-definition-api";

/** The list's values as a set (how many and how long is bounded by the contract). */
function values(list: readonly string[]): ReadonlySet<string> {
  return new Set(list);
}

export type PolicyMatcher = (entry: TenantDefinition) => boolean;

/** Every given filter must match; within one filter, any of its values. */
export function policyMatcher(filter: GetPoliciesFilter | undefined): PolicyMatcher {
  const search = searchText(filter?.search);
  const states = new Set(filter?.states ?? []);
  if ([...states].some((state) => state === 0 || PolicyDefinitionState[state] === undefined)) {
    throw invalidField("filter.states", "use NOT_INSTALLED, ALERT or PREVENT.");
  }
  const enforcers = new Set(
    (filter?.cloudProviders ?? []).map((provider) => {
      const enforcer = enforcerOfProvider(provider);
      if (!enforcer) {
        throw invalidField(
          "filter.cloud_providers",
          `${CloudProvider[provider] ?? provider} is not a cloud provider; use AWS or AZURE.`,
        );
      }
      return enforcer;
    }),
  );
  const categories = new Set(
    (filter?.categories ?? []).map((category) => {
      const name = enumName(Category, category);
      if (!name) throw invalidField("filter.categories", "unknown category.");
      return name;
    }),
  );
  const initiatives = values(filter?.initiativeSlugs ?? []);
  const frameworks = values(filter?.frameworks ?? []);
  const affected = values(filter?.affectedResourceTypes ?? []);
  const slugs = values(filter?.slugs ?? []);
  const anyOf = (wanted: ReadonlySet<string>, have: readonly string[]) =>
    wanted.size === 0 || have.some((value) => wanted.has(value));

  return ({ definition, state }) =>
    (slugs.size === 0 || slugs.has(definition.slug)) &&
    (states.size === 0 || states.has(state)) &&
    (enforcers.size === 0 || enforcers.has(definition.enforcer)) &&
    (categories.size === 0 || categories.has(definition.category)) &&
    anyOf(initiatives, definition.initiative_slugs) &&
    anyOf(
      frameworks,
      definition.frameworks.map((framework) => framework.name),
    ) &&
    anyOf(affected, definition.affected_resource_types) &&
    (!search ||
      definition.slug.toLowerCase().includes(search) ||
      definition.display_name.toLowerCase().includes(search));
}
