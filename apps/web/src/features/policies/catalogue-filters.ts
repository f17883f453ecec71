import { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  Category,
  ListOrderBy,
  PolicyDefinitionState,
  Score,
} from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import type { PoliciesSearch } from "./policies-search";

export const CATALOGUE_PAGE_SIZE = 30;

type Provider = NonNullable<PoliciesSearch["provider"]>;
type CategoryFilter = NonNullable<PoliciesSearch["category"]>;
type StateFilter = NonNullable<PoliciesSearch["state"]>;

export const providerOf: Record<Provider, CloudProvider> = {
  AWS: CloudProvider.AWS,
  Azure: CloudProvider.AZURE,
};

export const categoryOf: Record<CategoryFilter, Category> = {
  "network-access": Category.NETWORK_ACCESS,
  "data-protection": Category.DATA_PROTECTION,
  encryption: Category.ENCRYPTION,
  identity: Category.IDENTITY,
  other: Category.OTHER,
};

export const stateOf: Record<StateFilter, PolicyDefinitionState> = {
  "not-installed": PolicyDefinitionState.NOT_INSTALLED,
  alert: PolicyDefinitionState.ALERT,
  prevent: PolicyDefinitionState.PREVENT,
};

export const scoreLabels: Record<Score, string> = {
  [Score.UNSPECIFIED]: "—",
  [Score.LOW]: "Low",
  [Score.MEDIUM]: "Medium",
  [Score.HIGH]: "High",
  [Score.VERY_HIGH]: "Very high",
};

/** A search of one character matches nearly everything, so it is not sent. */
export function searchTerm(text: string | undefined): string | undefined {
  const term = text?.trim() ?? "";
  return term.length > 1 ? term : undefined;
}

/** The largest page the service answers; the whole catalogue fits in it. */
const WHOLE_CATALOGUE = 200;

/**
 * The catalogue request for the filters in the address. The service has no category filter, so a
 * category asks for everything on one page and the answer is filtered here.
 */
export function catalogueRequest(search: PoliciesSearch) {
  const pagination = search.category
    ? { position: { case: "page" as const, value: 1 }, limit: WHOLE_CATALOGUE }
    : { position: { case: "page" as const, value: search.page ?? 1 }, limit: CATALOGUE_PAGE_SIZE };
  return {
    pagination,
    filter: {
      search: searchTerm(search.search),
      cloudProviders: search.provider ? [providerOf[search.provider]] : [],
      states: search.state ? [stateOf[search.state]] : [],
      frameworks: search.framework ? [search.framework] : [],
      affectedResourceTypes: search.resourceType ? [search.resourceType] : [],
    },
    orderBy: [ListOrderBy.NAME],
  };
}

/** Changing a filter starts again on the first page; the default view stays out of the address. */
export function withFilter<K extends keyof PoliciesSearch>(
  search: PoliciesSearch,
  key: K,
  value: PoliciesSearch[K],
): PoliciesSearch {
  const next: PoliciesSearch = { ...search, [key]: value === "" ? undefined : value };
  if (key !== "page") next.page = undefined;
  if (next.view === "catalogue") next.view = undefined;
  return next;
}

export function totalPagesOf(
  pagination: { position: { case: string | undefined; value?: unknown } } | undefined,
) {
  const position = pagination?.position;
  return position?.case === "totalPages" && typeof position.value === "number"
    ? Math.max(1, position.value)
    : 1;
}
