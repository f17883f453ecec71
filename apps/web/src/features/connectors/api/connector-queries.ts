import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export function setupInstructionsQuery(
  target: { case: "connectorId"; value: string } | { case: "provider"; value: number },
) {
  return createQueryOptions(
    ConnectorService.method.getSetupInstructions,
    { target },
    { transport: appTransport },
  );
}

/** Connectors come and go with their hierarchy. */
const changedByAddOrRemove = [ConnectorService.method.listConnectors, ConnectorService.method.listHierarchy];

/** A test or a sync records its outcome on the connector (status, last error, last sync). */
const changedByCheck = [ConnectorService.method.listConnectors];

export function useCreateConnector() {
  const queryClient = useQueryClient();
  return useMutation(ConnectorService.method.createConnector, {
    onSuccess: () => invalidateMethods(queryClient, changedByAddOrRemove),
  });
}

export function useDeleteConnector() {
  const queryClient = useQueryClient();
  return useMutation(ConnectorService.method.deleteConnector, {
    onSuccess: () => invalidateMethods(queryClient, changedByAddOrRemove),
  });
}

export function useTestConnector() {
  const queryClient = useQueryClient();
  return useMutation(ConnectorService.method.testConnector, {
    onSettled: () => invalidateMethods(queryClient, changedByCheck),
  });
}

export function useSyncHierarchy() {
  const queryClient = useQueryClient();
  return useMutation(ConnectorService.method.syncHierarchy, {
    onSettled: () => invalidateMethods(queryClient, changedByCheck),
  });
}

/** Quotas are part of the connector's settings; the space shown per target is measured against them. */
export function useUpdateConnector() {
  const queryClient = useQueryClient();
  return useMutation(ConnectorService.method.updateConnector, {
    onSuccess: () => invalidateMethods(queryClient, [ConnectorService.method.listConnectors]),
  });
}

/** The room Palisade's policies take on each target of a connector, one page at a time. */
export function policySpaceQuery(connectorId: string, page: number) {
  return createQueryOptions(
    ConnectorService.method.getPolicySpace,
    { connectorId, pagination: { position: { case: "page", value: page }, limit: 10 } },
    { transport: appTransport },
  );
}
