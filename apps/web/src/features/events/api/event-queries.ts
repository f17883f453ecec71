import type { MessageInitShape } from "@bufbuild/protobuf";
import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import {
  type EventFilterSchema,
  ExportStatus,
  PolicyEventStoreService,
} from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { keepPreviousData, useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";
import { eventsPagination, type PageCursor } from "../event-filter";

type EventFilterInit = MessageInitShape<typeof EventFilterSchema>;

export function resourceEventsQuery(filter: EventFilterInit, cursor: PageCursor | undefined) {
  return {
    ...createQueryOptions(
      PolicyEventStoreService.method.list,
      { filter, pagination: eventsPagination(cursor) },
      { transport: appTransport },
    ),
    placeholderData: keepPreviousData,
  };
}

export function eventSummaryQuery(filter: EventFilterInit = {}) {
  return createQueryOptions(PolicyEventStoreService.method.summary, { filter }, { transport: appTransport });
}

/** Dismissing an event changes the lists and their counts. */
const changedByDismiss = [
  PolicyEventStoreService.method.list,
  PolicyEventStoreService.method.listEvents,
  PolicyEventStoreService.method.summary,
  PolicyEventStoreService.method.summaryResources,
  PolicyEventStoreService.method.listHierarchyEvents,
];

/** A fetch brings new events, and with them new compliance figures. */
const changedByFetch = [...changedByDismiss, PolicyEventStoreService.method.getCompliantTrend];

/** Dismisses or restores an event. The lists are read again whether or not the change went through. */
export function useUpdateResources() {
  const queryClient = useQueryClient();
  return useMutation(PolicyEventStoreService.method.updateResources, {
    onSettled: () => invalidateMethods(queryClient, changedByDismiss),
  });
}

/** Dismisses or restores one event, in the every-event view. */
export function useUpdateEvent() {
  const queryClient = useQueryClient();
  return useMutation(PolicyEventStoreService.method.update, {
    onSettled: () => invalidateMethods(queryClient, changedByDismiss),
  });
}

export function useTriggerFetch() {
  const queryClient = useQueryClient();
  return useMutation(PolicyEventStoreService.method.triggerFetch, {
    onSuccess: () => invalidateMethods(queryClient, changedByFetch),
  });
}

/** Every event for a filter, newest first, a page at a time. */
export function eventListQuery(filter: EventFilterInit, cursor: PageCursor | undefined) {
  return {
    ...createQueryOptions(
      PolicyEventStoreService.method.listEvents,
      { filter, pagination: eventsPagination(cursor) },
      { transport: appTransport },
    ),
    placeholderData: keepPreviousData,
  };
}

/** The counts of resource events (one per resource and policy), for the per-resource view. */
export function resourceSummaryQuery(filter: EventFilterInit) {
  return createQueryOptions(
    PolicyEventStoreService.method.summaryResources,
    { filter },
    { transport: appTransport },
  );
}

export function eventQuery(id: string) {
  return createQueryOptions(PolicyEventStoreService.method.get, { id }, { transport: appTransport });
}

export function resourceTypesQuery() {
  return createQueryOptions(
    PolicyEventStoreService.method.listResourceTypes,
    {},
    { transport: appTransport },
  );
}

/** People and applications seen in events; the service ignores a search below 2 characters. */
export function userNamesQuery(search: string | undefined) {
  return {
    ...createQueryOptions(
      PolicyEventStoreService.method.listUserNames,
      { search },
      { transport: appTransport },
    ),
    placeholderData: keepPreviousData,
  };
}

/** The tenant's policies (bundles) to filter by, by name. */
export function policyChoicesQuery() {
  return createQueryOptions(
    DeploymentManagerService.method.listBundle,
    { pagination: { position: { case: "page", value: 1 }, limit: 100 }, filter: { policySlugs: [] } },
    { transport: appTransport },
  );
}

/** One level of the cloud hierarchy with the counts of the events below each scope. */
export function hierarchyEventsQuery(filter: EventFilterInit, parentExternalId: string | undefined) {
  return createQueryOptions(
    PolicyEventStoreService.method.listHierarchyEvents,
    { filter, parentExternalId },
    { transport: appTransport },
  );
}

export function useExportAsync() {
  return useMutation(PolicyEventStoreService.method.exportAsync);
}

const EXPORT_POLL_MS = 500;

/** An export's progress, read again until it has succeeded or failed. */
export function exportStatusQuery(jobId: string) {
  return {
    ...createQueryOptions(
      PolicyEventStoreService.method.getExportStatus,
      { jobId },
      { transport: appTransport },
    ),
    refetchInterval: (query: { state: { data?: { status: ExportStatus } } }) =>
      query.state.data?.status === ExportStatus.SUCCEEDED || query.state.data?.status === ExportStatus.FAILED
        ? false
        : EXPORT_POLL_MS,
    enabled: jobId !== "",
  };
}
