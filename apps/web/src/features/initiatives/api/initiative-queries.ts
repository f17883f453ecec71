import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { InitiativeService } from "@palisade/api/gen/palisade/initiative/v1/initiative_pb";
import { PolicyDefinitionService } from "@palisade/api/gen/palisade/policydefinition/v1/policy_definition_service_pb";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export function initiativesQuery() {
  return createQueryOptions(
    InitiativeService.method.listInitiatives,
    { pagination: { position: { case: "page", value: 1 }, limit: 200 } },
    { transport: appTransport },
  );
}

export function initiativeQuery(id: string) {
  return createQueryOptions(
    InitiativeService.method.getInitiative,
    { lookup: { case: "slug", value: id } },
    { transport: appTransport },
  );
}

export function initiativePoliciesQuery(initiative: string, clause: string | undefined) {
  return createQueryOptions(
    InitiativeService.method.listInitiativePolicies,
    { initiative, clause, pagination: { position: { case: "page", value: 1 }, limit: 200 } },
    { transport: appTransport },
  );
}

/** While an install is under way, its progress is read again this often. */
const INSTALL_POLL_MS = 1000;

export function installProgressQuery(jobId: string) {
  return {
    ...createQueryOptions(
      InitiativeService.method.getInitiativeInstall,
      { jobId },
      { transport: appTransport },
    ),
    refetchInterval: (query: { state: { data?: { finished: boolean } } }) =>
      query.state.data?.finished ? false : INSTALL_POLL_MS,
  };
}

const changedByInstall = [
  InitiativeService.method.listInitiatives,
  InitiativeService.method.getInitiative,
  InitiativeService.method.listInitiativePolicies,
  DeploymentManagerService.method.listBundle,
  DeploymentManagerService.method.summaryBundle,
  PolicyDefinitionService.method.list,
];

export function useInstallInitiative() {
  const queryClient = useQueryClient();
  return useMutation(InitiativeService.method.installInitiative, {
    onSuccess: () => invalidateMethods(queryClient, changedByInstall),
  });
}

/** Once every bundle of an install has landed, what the pages show of the initiative changed. */
export function useRefreshAfterInstall() {
  const queryClient = useQueryClient();
  return useCallback(() => invalidateMethods(queryClient, changedByInstall), [queryClient]);
}
