import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import type { CloudProvider } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type DeploymentMode,
  DeploymentStatus,
} from "@palisade/api/gen/palisade/deployment/v1/deployment_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { ListOrderBy } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_pb";
import { PolicyDefinitionService } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { RecommendationService } from "@palisade/api/gen/palisade/recommendation/v1/recommendation_pb";
import { keepPreviousData, useQueryClient } from "@tanstack/react-query";
import { bundleLookup } from "@/lib/bundle-lookup";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";
import { CATALOGUE_PAGE_SIZE, catalogueRequest } from "../catalogue-filters";
import type { PoliciesSearch } from "../policies-search";

/** While a deployment is being applied or propagating, its status is read again this often. */
const DEPLOY_POLL_MS = 2000;

const inProgress = (status: DeploymentStatus) =>
  status === DeploymentStatus.PENDING ||
  status === DeploymentStatus.EVALUATING ||
  status === DeploymentStatus.PROPAGATING;

export function catalogueQuery(search: PoliciesSearch) {
  return {
    ...createQueryOptions(PolicyDefinitionService.method.list, catalogueRequest(search), {
      transport: appTransport,
    }),
    placeholderData: keepPreviousData,
  };
}

/** The catalogue as a list of choices: the largest page the service gives, names only. */
export function catalogueChoicesQuery(provider?: CloudProvider) {
  return createQueryOptions(
    PolicyDefinitionService.method.list,
    {
      pagination: { position: { case: "page", value: 1 }, limit: 200 },
      filter: { cloudProviders: provider === undefined ? [] : [provider] },
      orderBy: [ListOrderBy.NAME],
    },
    { transport: appTransport },
  );
}

export function frameworksQuery(provider?: CloudProvider) {
  return createQueryOptions(
    PolicyDefinitionService.method.listFrameworks,
    { cloudProvider: provider },
    { transport: appTransport },
  );
}

export function resourceTypesQuery(provider?: CloudProvider) {
  return createQueryOptions(
    PolicyDefinitionService.method.listAffectedResources,
    { cloudProvider: provider },
    { transport: appTransport },
  );
}

export function definitionQuery(slug: string) {
  return createQueryOptions(PolicyDefinitionService.method.get, { slug }, { transport: appTransport });
}

export function bundlesQuery(page: number, policySlugs: string[] = [], modes: DeploymentMode[] = []) {
  return {
    ...createQueryOptions(
      DeploymentManagerService.method.listBundle,
      {
        pagination: { position: { case: "page", value: page }, limit: CATALOGUE_PAGE_SIZE },
        filter: { policySlugs, modes },
      },
      { transport: appTransport },
    ),
    placeholderData: keepPreviousData,
    refetchInterval: (query: { state: { data?: { items: { bundle?: { status: DeploymentStatus } }[] } } }) =>
      query.state.data?.items.some((b) => b.bundle && inProgress(b.bundle.status)) ? DEPLOY_POLL_MS : false,
  };
}

export function deploymentsQuery(bundleId: string) {
  return {
    ...createQueryOptions(
      DeploymentManagerService.method.listDeployments,
      { bundleId, pagination: { position: { case: "page", value: 1 }, limit: 200 } },
      { transport: appTransport },
    ),
    refetchInterval: (query: {
      state: { data?: { items: { deployment?: { status: DeploymentStatus } }[] } };
    }) =>
      query.state.data?.items.some((d) => d.deployment && inProgress(d.deployment.status))
        ? DEPLOY_POLL_MS
        : false,
  };
}

export function bundleQuery(policyId: string) {
  return {
    ...createQueryOptions(
      DeploymentManagerService.method.getBundle,
      { lookup: bundleLookup(policyId) },
      { transport: appTransport },
    ),
    refetchInterval: (query: {
      state: { data?: { bundle?: { bundle?: { status: DeploymentStatus } } } };
    }) => {
      const status = query.state.data?.bundle?.bundle?.status;
      return status !== undefined && inProgress(status) ? DEPLOY_POLL_MS : false;
    },
  };
}

export { inProgress };

/** A new bundle changes the bundle lists and counts and the catalogue's deployed state. */
const changedByCreate = [
  DeploymentManagerService.method.listBundle,
  DeploymentManagerService.method.summaryBundle,
  PolicyDefinitionService.method.list,
];

/** A changed or deleted bundle also changes its own page and its deployments. */
const changedByChange = [
  ...changedByCreate,
  DeploymentManagerService.method.getBundle,
  DeploymentManagerService.method.listDeployments,
];

export function useCreateBundle() {
  const queryClient = useQueryClient();
  return useMutation(DeploymentManagerService.method.createBundle, {
    onSuccess: () => invalidateMethods(queryClient, changedByCreate),
  });
}

/** Records that the bundle deployed from the create form installs the recommendation it was opened from. */
export function useMarkRecommendationInstalled() {
  const queryClient = useQueryClient();
  return useMutation(RecommendationService.method.markRecommendationInstalled, {
    onSuccess: () =>
      invalidateMethods(queryClient, [
        RecommendationService.method.listRecommendations,
        RecommendationService.method.getRecommendation,
      ]),
  });
}

/** Switches a bundle's mode. Its state is read again whether or not the switch went through. */
export function useUpdateBundle() {
  const queryClient = useQueryClient();
  return useMutation(DeploymentManagerService.method.updateBundle, {
    onSettled: () => invalidateMethods(queryClient, changedByChange),
  });
}

export function useDeleteBundle() {
  const queryClient = useQueryClient();
  return useMutation(DeploymentManagerService.method.deleteBundle, {
    onSuccess: () => invalidateMethods(queryClient, changedByChange),
  });
}
