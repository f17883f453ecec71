import { CloudProvider, ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  BundleOrderBy,
  type ListBundleFilter,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { invalidField } from "../../rpc/errors";
import type { ExportFormatName } from "../export/export-api";
import { searchText } from "../policy-definition/policy-definition-api";
import type { BundleFilter, BundleOrder } from "./bundle-query-repository";
import { modeName, statusName } from "./deployment-message";

/**
 * A list of filter values. How many and how long is a bound of the contract (checked before a
 * handler runs), so that one request cannot build an unbounded query.
 */
export function filterStrings(values: readonly string[]): string[] {
  return [...values];
}

const PROVIDER_NAMES: Partial<Record<CloudProvider, string>> = {
  [CloudProvider.AWS]: "aws",
  [CloudProvider.AZURE]: "azure",
};

export function readBundleFilter(filter: ListBundleFilter | undefined): BundleFilter {
  return {
    search: searchText(filter?.search),
    modes: (filter?.modes ?? []).map((mode) => modeName(mode, "filter.modes")),
    statuses: (filter?.status ?? []).map((status) => statusName(status, "filter.status")),
    namespaces: filterStrings(filter?.namespaces ?? []),
    policySlugs: filterStrings(filter?.policySlugs ?? []),
    affectedResourceTypes: filterStrings(filter?.affectedResourceTypes ?? []),
    mainResourceTypes: filterStrings(filter?.mainResourceTypes ?? []),
    scopes: filterStrings(filter?.scopes ?? []),
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
