import type { MessageInitShape } from "@bufbuild/protobuf";
import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import {
  type EventFilterSchema,
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
const changedByDismiss = [PolicyEventStoreService.method.list, PolicyEventStoreService.method.summary];

/** A fetch brings new events, and with them new compliance figures. */
const changedByFetch = [...changedByDismiss, PolicyEventStoreService.method.getCompliantTrend];

/** Dismisses or restores an event. The lists are read again whether or not the change went through. */
export function useUpdateResources() {
  const queryClient = useQueryClient();
  return useMutation(PolicyEventStoreService.method.updateResources, {
    onSettled: () => invalidateMethods(queryClient, changedByDismiss),
  });
}

export function useTriggerFetch() {
  const queryClient = useQueryClient();
  return useMutation(PolicyEventStoreService.method.triggerFetch, {
    onSuccess: () => invalidateMethods(queryClient, changedByFetch),
  });
}
