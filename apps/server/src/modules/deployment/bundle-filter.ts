import { CloudProvider, ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  BundleOrderBy,
  type ListBundleFilter,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { invalidField } from "../../rpc/errors";
import type { ExportFormatName } from "../export/export-service";
import { searchText } from "../policy-definition/definition-query";
import type { BundleFilter, BundleOrder } from "./bundle-query-repository";
import { modeName, statusName } from "./deployment-message";

const MAX_FILTER_VALUES = 200;
const MAX_FILTER_VALUE = 300;

/** A list of filter values, bounded so that one request cannot build an unbounded query. */
export function filterStrings(field: string, values: readonly string[]): string[] {
  if (values.length > MAX_FILTER_VALUES) throw invalidField(field, `at most ${MAX_FILTER_VALUES} values.`);
  if (values.some((value) => value.length > MAX_FILTER_VALUE)) {
    throw invalidField(field, `each value is at most ${MAX_FILTER_VALUE} characters.`);
  }
  return [...values];
}

const PROVIDER_NAMES: Partial<Record<CloudProvider, string>> = {
  [CloudProvider.AWS]: "aws",
  [CloudProvider.AZURE]: "azure",
};

export function readBundleFilter(filter: ListBundleFilter | undefined): BundleFilter {
  return {
    search: searchText(filter?.search, "filter.search"),
    modes: (filter?.modes ?? []).map((mode) => modeName(mode, "filter.modes")),
    statuses: (filter?.status ?? []).map((status) => statusName(status, "filter.status")),
    namespaces: filterStrings("filter.namespaces", filter?.namespaces ?? []),
    policySlugs: filterStrings("filter.policy_slugs", filter?.policySlugs ?? []),
    affectedResourceTypes: filterStrings(
      "filter.affected_resource_types",
      filter?.affectedResourceTypes ?? [],
    ),
    mainResourceTypes: filterStrings("filter.main_resource_types", filter?.mainResourceTypes ?? []),
    scopes: filterStrings("filter.scopes", filter?.scopes ?? []),
    providers: (filter?.cloudProviders ?? []).map((provider) => {
      const name = PROVIDER_NAMES[provider];
      if (!name) throw invalidField("filter.cloud_providers", "use AWS or AZURE.");
      return name;
    }),
  };
}

export const BUNDLE_ORDERS: Record<BundleOrderBy, BundleOrder> = {
  [BundleOrderBy.UNSPECIFIED]: "created_at",
  [BundleOrderBy.CREATED_AT]: "created_at",
  [BundleOrderBy.NAME]: "name",
  [BundleOrderBy.MODE]: "mode",
  [BundleOrderBy.STATUS]: "status",
  [BundleOrderBy.PREVENTIONS_COUNT]: "preventions",
};

export function exportFormat(format: ExportFormat): ExportFormatName {
  return format === ExportFormat.JSON ? "json" : "csv";
}
