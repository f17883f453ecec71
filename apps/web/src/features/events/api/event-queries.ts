import type { MessageInitShape } from "@bufbuild/protobuf";
import { createConnectQueryKey, createQueryOptions } from "@connectrpc/connect-query";
import {
  type EventFilterSchema,
  PolicyEventStoreService,
} from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { keepPreviousData } from "@tanstack/react-query";
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

export const eventKeys = createConnectQueryKey({ schema: PolicyEventStoreService, cardinality: undefined });
