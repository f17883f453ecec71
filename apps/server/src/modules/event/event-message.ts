import { create, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  PaginationResponseSchema,
  type Scope,
  ScopeSchema,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type EventSummary,
  EventSummarySchema,
  type EventUser,
  EventUserSchema,
  EventUserType,
  type PolicyEvent,
  PolicyEventSchema,
  type ResourceEvent,
  ResourceEventSchema,
} from "@palisade/api/gen/palisade/event/v1/event_pb";
import { cloudProviderOf, scopeTypeOf } from "../../rpc/common-message";
import { displayUserName } from "./display-user-name";
import { encodeKeyset, eventTypeOf, type Keyset } from "./event-query";
import type { EventRow, ResourceEventRow } from "./event-repository";
import type { SummaryCounts } from "./event-summary-repository";

/** Raw SQL returns timestamps as strings on one engine and Dates on the other. */
export const asDate = (value: Date | string | null | undefined): Date | undefined =>
  value === null || value === undefined ? undefined : value instanceof Date ? value : new Date(value);

/** A node of a connector's synced hierarchy. */
export function scopeMessage(node: {
  provider: string;
  externalId: string;
  name: string;
  type: string;
  connectorId: string;
}): Scope {
  return create(ScopeSchema, {
    provider: cloudProviderOf(node.provider),
    externalId: node.externalId,
    name: node.name,
    type: scopeTypeOf(node.type),
    connectorId: node.connectorId,
  });
}

/** Who made the request behind an event, from the user columns of `policy_events`. */
export function eventUserMessage(row: {
  user_identifier: string | null;
  user_name: string | null;
  source_app_identifier: string | null;
  source_app_name: string | null;
  user_type: string | null;
}): EventUser {
  return create(EventUserSchema, {
    identifier: row.user_identifier ?? "",
    name: displayUserName(row.user_identifier, row.user_name),
    sourceAppIdentifier: row.source_app_identifier ?? "",
    sourceAppName: row.source_app_name ?? "",
    type:
      row.user_type === "USER"
        ? EventUserType.USER
        : row.user_type === "APPLICATION"
          ? EventUserType.APPLICATION
          : EventUserType.UNSPECIFIED,
  });
}

/** `scopes` holds the synced nodes of the rows' scopes; others are shown by their id. */
export function eventMessage(row: EventRow, scopes: Map<string, Scope>): PolicyEvent {
  const provider = cloudProviderOf(row.cloud_provider);
  const audits = Array.isArray(row.audits)
    ? (row.audits as { id?: string; action?: string; eventTime?: string; raw?: unknown }[])
    : [];
  return create(PolicyEventSchema, {
    entity: {
      id: row.id,
      createdAt: timestampFromDate(asDate(row.created_at) ?? new Date(0)),
      updatedAt: timestampFromDate(asDate(row.created_at) ?? new Date(0)),
    },
    type: eventTypeOf(row.type),
    isDismissed: Boolean(row.is_dismissed),
    policyDeployment: {
      name: row.deployment_name ?? "",
      bundleId: row.bundle_id ?? "",
      namespace: row.namespace ?? undefined,
      key: row.bundle_key ?? "",
    },
    resource: {
      details: {
        externalId: row.resource_external_id ?? "",
        nativeType: row.resource_native_type ?? undefined,
      },
      scope:
        (row.resource_scope ? scopes.get(row.resource_scope) : undefined) ??
        (row.resource_scope
          ? create(ScopeSchema, { provider, externalId: row.resource_scope, name: row.resource_scope })
          : undefined),
      name: row.resource_name ?? "",
      createdTime: row.resource_created_at
        ? timestampFromDate(asDate(row.resource_created_at) as Date)
        : undefined,
      link: row.resource_link ?? "",
    },
    user: eventUserMessage(row),
    archived: row.archived,
    occurredTime: timestampFromDate(asDate(row.occurred_at) as Date),
    cloudProvider: provider,
    audits: audits.map((a) => ({
      id: a.id ?? "",
      action: a.action ?? "",
      eventTime: a.eventTime ? timestampFromDate(new Date(a.eventTime)) : undefined,
      raw:
        a.raw && typeof a.raw === "object" && !Array.isArray(a.raw)
          ? (a.raw as Record<string, JsonValue>)
          : undefined,
    })),
  });
}

export function resourceEventMessage(row: ResourceEventRow, scopes: Map<string, Scope>): ResourceEvent {
  return create(ResourceEventSchema, {
    event: eventMessage(row, scopes),
    lastOccurredTime: timestampFromDate(asDate(row.re_last_occurred_at) as Date),
    isDismissed: row.re_is_dismissed,
  });
}

export function summaryMessage(counts: SummaryCounts): EventSummary {
  return create(EventSummarySchema, counts);
}

/** Page mode counts pages; cursor mode returns the keysets of the page's first and last rows. */
export function paginationMessage(
  page: { cursorMode: boolean; limit: number; after?: Keyset; before?: Keyset },
  rows: { sort_value: string; id: string; re_id?: string }[],
  hasMore: boolean,
  total: number,
) {
  if (!page.cursorMode) {
    return create(PaginationResponseSchema, {
      position: { case: "totalPages", value: Math.ceil(total / page.limit) },
      totalItems: total,
    });
  }
  const keyOf = (row: { sort_value: string; id: string; re_id?: string }) =>
    encodeKeyset({ value: row.sort_value, id: row.re_id ?? row.id });
  const first = rows[0];
  const last = rows.at(-1);
  const walkingBack = Boolean(page.before && !page.after);
  // `end` leads to the next page, `start` to the previous one; each is absent at its end.
  const hasNext = walkingBack ? true : hasMore;
  const hasPrevious = walkingBack ? hasMore : Boolean(page.after);
  return create(PaginationResponseSchema, {
    position: {
      case: "cursor",
      value: {
        start: first && hasPrevious ? keyOf(first) : undefined,
        end: last && hasNext ? keyOf(last) : undefined,
      },
    },
    totalItems: total,
  });
}
