import { CloudProvider, Order } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  ListOrderBy,
  PolicyDefinitionState,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { ListFilter } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import type { Enforcer } from "@palisade/policy-engine/catalogue/definition-schema";
import { invalidField } from "../../rpc/errors";
import { enforcerOfProvider } from "./definition-message";
import type { TenantDefinition } from "./tenant-catalogue";

// How many values a filter holds and how long each text is are bounds of the contract,
// checked before a handler runs.

export interface DefinitionFilter {
  initiativeSlugs: ReadonlySet<string>;
  states: ReadonlySet<PolicyDefinitionState>;
  affectedResourceTypes: ReadonlySet<string>;
  frameworks: ReadonlySet<string>;
  slugs: ReadonlySet<string>;
  /** Lower-case; absent when not given or shorter than 2 characters. */
  search: string | undefined;
  mainResourceTypes: ReadonlySet<string>;
  enforcers: ReadonlySet<Enforcer>;
}

function strings(values: readonly string[]): ReadonlySet<string> {
  return new Set(values);
}

export function requireSlug(raw: string): string {
  const slug = raw.trim();
  if (slug.length === 0) throw invalidField("slug", "required.");
  return slug;
}

/** Case-insensitive search text; a single character matches too much and is ignored, as on every list. */
export function searchText(search: string | undefined): string | undefined {
  const text = search?.trim();
  return text && text.length > 1 ? text.toLowerCase() : undefined;
}

export function readFilter(filter: ListFilter | undefined): DefinitionFilter {
  const states = filter?.states ?? [];
  if (states.some((state) => PolicyDefinitionState[state] === undefined || state === 0)) {
    throw invalidField("filter.states", "use NOT_INSTALLED, ALERT or PREVENT (at most one of each).");
  }
  const enforcers = (filter?.cloudProviders ?? []).map((provider) => {
    const enforcer = enforcerOfProvider(provider);
    if (!enforcer) {
      throw invalidField(
        "filter.cloud_providers",
        `${CloudProvider[provider] ?? provider} is not a cloud provider; use AWS or AZURE.`,
      );
    }
    return enforcer;
  });
  return {
    initiativeSlugs: strings(filter?.initiativeSlugs ?? []),
    states: new Set(states),
    affectedResourceTypes: strings(filter?.affectedResourceTypes ?? []),
    frameworks: strings(filter?.frameworks ?? []),
    slugs: strings(filter?.slugs ?? []),
    search: searchText(filter?.search),
    mainResourceTypes: strings(filter?.mainResourceTypes ?? []),
    enforcers: new Set(enforcers),
  };
}

function anyOf(wanted: ReadonlySet<string>, values: readonly string[]): boolean {
  return wanted.size === 0 || values.some((value) => wanted.has(value));
}

/** Every given filter must match; within one filter, any of its values. */
export function matchesFilter(entry: TenantDefinition, filter: DefinitionFilter): boolean {
  const { definition } = entry;
  if (filter.slugs.size > 0 && !filter.slugs.has(definition.slug)) return false;
  if (filter.enforcers.size > 0 && !filter.enforcers.has(definition.enforcer)) return false;
  if (filter.states.size > 0 && !filter.states.has(entry.state)) return false;
  if (filter.mainResourceTypes.size > 0 && !filter.mainResourceTypes.has(definition.main_resource_type))
    return false;
  if (!anyOf(filter.initiativeSlugs, definition.initiative_slugs)) return false;
  if (!anyOf(filter.affectedResourceTypes, definition.affected_resource_types)) return false;
  if (
    !anyOf(
      filter.frameworks,
      definition.frameworks.map((framework) => framework.name),
    )
  )
    return false;
  if (filter.search) {
    const needle = filter.search;
    return [definition.slug, definition.display_name, definition.description].some((text) =>
      text.toLowerCase().includes(needle),
    );
  }
  return true;
}

const SCORE_RANK: Record<string, number> = { low: 1, medium: 2, high: 3, very_high: 4 };

type Compare = (a: TenantDefinition, b: TenantDefinition) => number;

const ascending: Record<Exclude<ListOrderBy, ListOrderBy.UNSPECIFIED>, Compare> = {
  [ListOrderBy.CREATED_AT]: (a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0),
  [ListOrderBy.SECURITY_SCORE]: (a, b) =>
    (SCORE_RANK[a.definition.security_score] ?? 0) - (SCORE_RANK[b.definition.security_score] ?? 0),
  [ListOrderBy.SEAMLESS_SCORE]: (a, b) =>
    (SCORE_RANK[a.definition.seamless_score] ?? 0) - (SCORE_RANK[b.definition.seamless_score] ?? 0),
  [ListOrderBy.NAME]: (a, b) =>
    a.definition.display_name.localeCompare(b.definition.display_name, "en", { sensitivity: "base" }),
};

/**
 * Sorts by each key in turn, then by slug. Without an explicit order, names read A to Z while
 * scores and creation times put the highest and newest first; catalogue definitions, which have
 * no creation time, count as the oldest.
 */
export function sortDefinitions(
  entries: readonly TenantDefinition[],
  orderBy: readonly ListOrderBy[],
  order: Order,
): TenantDefinition[] {
  const keys = orderBy.filter((key) => key !== ListOrderBy.UNSPECIFIED);
  if (keys.some((key) => ascending[key as keyof typeof ascending] === undefined)) {
    throw invalidField("order_by", "use CREATED_AT, SECURITY_SCORE, SEAMLESS_SCORE or NAME.");
  }
  const effective = keys.length > 0 ? keys : [ListOrderBy.NAME];
  const comparators = effective.map((key): Compare => {
    const compare = ascending[key as keyof typeof ascending];
    const descending =
      order === Order.DESCENDING || (order === Order.UNSPECIFIED && key !== ListOrderBy.NAME);
    return descending ? (a, b) => compare(b, a) : compare;
  });
  return [...entries].sort((a, b) => {
    for (const compare of comparators) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return a.definition.slug.localeCompare(b.definition.slug);
  });
}
