import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import {
  CloudProvider,
  ExportFormat,
  Order,
  type PaginationRequest,
  PaginationResponseSchema,
  type Scope,
  ScopeSchema,
  ScopeType,
} from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type EventSummary,
  EventSummarySchema,
  EventUserSchema,
  EventUserType,
  type PolicyEvent,
  PolicyEventSchema,
  type ResourceEvent,
  ResourceEventSchema,
} from "@palisade/api/gen/palisade/event/v1/event_pb";
import {
  BucketSize,
  type EventFilter,
  EventFilterSchema,
  EventOrderBy,
  type PolicyEventStoreService,
} from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { Catalogue } from "@palisade/policy-engine/catalogue/parse-catalogue";
import { and, eq, inArray, isNull, max } from "drizzle-orm";
import type { Database } from "../../db/database";
import { connectors, hierarchyNodes } from "../../db/schema/connectors";
import { bundles, deployments } from "../../db/schema/deployments";
import type { JobQueue } from "../../jobs/job-queue";
import type { Logger } from "../../logger";
import { type Caller, callContext, requireCaller } from "../../rpc/call-context";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../rpc/pagination";
import { writeAudit } from "../audit/audit-log";
import type { ConnectorRuntime } from "../connector/connector-runtime";
import type { ExportService } from "../export/export-service";
import { displayUserName } from "./classify";
import { type EventPipeline, startEventPipeline } from "./event-pipeline";
import {
  cloudProviderOf,
  decodeKeyset,
  type EventQuery,
  encodeKeyset,
  eventTypeOf,
  providerNameOf,
  TYPE_NAMES,
} from "./event-query";
import {
  COUNT_CAP,
  complianceTrend,
  countEvents,
  countResourceEvents,
  type EventRow,
  findEvent,
  findResourceEventOf,
  listEvents,
  listResourceEvents,
  mostActive,
  type PageRequest,
  type ResourceEventRow,
  resourceTypes,
  type SummaryCounts,
  setEventDismissed,
  setResourceDismissed,
  summarize,
  summarizeBuckets,
  summarizeByScope,
  summarizeResourceTypes,
  summaryOf,
  userNames,
} from "./event-repository";
import type { EventTypeName } from "./record-event";

const MAX_TEXT = 200;
const MAX_LIST = 100;
const MAX_ID = 128;
const EXPORT_PAGE = 2000;
const DAY_MS = 86_400_000;
const MAX_TREND_DAYS = 366;

const SCOPE_TYPES: Record<string, ScopeType> = {
  AWS_ORGANIZATION_ROOT: ScopeType.AWS_ORGANIZATION_ROOT,
  AWS_OU: ScopeType.AWS_OU,
  AWS_ACCOUNT: ScopeType.AWS_ACCOUNT,
  AZURE_MANAGEMENT_GROUP: ScopeType.AZURE_MANAGEMENT_GROUP,
  AZURE_SUBSCRIPTION: ScopeType.AZURE_SUBSCRIPTION,
  AZURE_RESOURCE_GROUP: ScopeType.AZURE_RESOURCE_GROUP,
};

const invalid = (message: string) => new ConnectError(message, Code.InvalidArgument);

function boundedText(value: string | undefined, field: string, max = MAX_TEXT): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (text.length > max) throw invalid(`${field} must be at most ${max} characters.`);
  return text;
}

function boundedList(values: readonly string[], field: string): string[] {
  if (values.length > MAX_LIST) throw invalid(`${field} may list at most ${MAX_LIST} values.`);
  return values.map((v, i) => {
    const text = v.trim();
    if (!text) throw invalid(`${field}[${i}] must not be empty.`);
    if (text.length > MAX_TEXT) throw invalid(`${field}[${i}] must be at most ${MAX_TEXT} characters.`);
    return text;
  });
}

function dateOf(ts: Timestamp | undefined): Date | undefined {
  return ts ? timestampDate(ts) : undefined;
}

const asDate = (value: Date | string | null | undefined): Date | undefined =>
  value === null || value === undefined ? undefined : value instanceof Date ? value : new Date(value);

interface HierarchyView {
  /** Lower-cased external id -> node. */
  nodes: Map<
    string,
    {
      externalId: string;
      parent: string | null;
      name: string;
      type: string;
      connectorId: string;
      provider: string;
    }
  >;
  children: Map<string, string[]>;
}

export function createPolicyEventStoreService(deps: {
  db: Database;
  pipeline: EventPipeline;
  exports: ExportService;
}): ServiceImpl<typeof PolicyEventStoreService> {
  const { db, pipeline, exports } = deps;

  async function hierarchyOf(tenantId: string): Promise<HierarchyView> {
    const rows = await db
      .select({
        externalId: hierarchyNodes.externalId,
        parent: hierarchyNodes.parentExternalId,
        name: hierarchyNodes.name,
        type: hierarchyNodes.type,
        connectorId: hierarchyNodes.connectorId,
        provider: hierarchyNodes.provider,
      })
      .from(hierarchyNodes)
      .where(eq(hierarchyNodes.tenantId, tenantId));
    const nodes = new Map(rows.map((r) => [r.externalId.toLowerCase(), r]));
    const children = new Map<string, string[]>();
    for (const r of rows) {
      const parent = r.parent?.toLowerCase() ?? "";
      children.set(parent, [...(children.get(parent) ?? []), r.externalId.toLowerCase()]);
    }
    return { nodes, children };
  }

  function descendants(view: HierarchyView, scope: string): string[] {
    const out: string[] = [];
    const stack = [scope.toLowerCase()];
    while (stack.length > 0 && out.length < 100_000) {
      const next = stack.pop() as string;
      if (out.includes(next)) continue;
      out.push(next);
      stack.push(...(view.children.get(next) ?? []));
    }
    return out;
  }

  /** Checks a filter and turns it into a query; scopes are expanded to the scopes below them. */
  async function queryOf(tenantId: string, filter: EventFilter | undefined): Promise<EventQuery> {
    const f = filter;
    const types: EventTypeName[] = [];
    let includeDismissedType = false;
    for (const t of f?.type ?? []) {
      const name = TYPE_NAMES[t];
      if (!name) throw invalid(`filter.type: ${t} is not an event type.`);
      if (name === "DISMISSED") includeDismissedType = true;
      else if (!types.includes(name)) types.push(name);
    }
    const scopes = boundedList(f?.scope ?? [], "filter.scope");
    let expanded: string[] = [];
    if (scopes.length > 0) {
      const view = await hierarchyOf(tenantId);
      expanded = [...new Set(scopes.flatMap((s) => descendants(view, s)))];
    }
    const range = f?.timeRange;
    const start = dateOf(range?.start);
    const end = dateOf(range?.end);
    if (start && end && start.getTime() > end.getTime())
      throw invalid("filter.time_range: start must not be after end.");
    return {
      types,
      includeDismissedType,
      resourceName: boundedText(f?.resourceName, "filter.resource_name"),
      resourceTypes: boundedList(f?.resourceType ?? [], "filter.resource_type"),
      policyNames: boundedList(f?.policyName ?? [], "filter.policy_name"),
      scopes: expanded,
      scopePrefixes: scopes.filter((s) => s.startsWith("/")).map((s) => s.toLowerCase().replace(/\/+$/, "")),
      users: boundedList(f?.user ?? [], "filter.user"),
      policyId: boundedText(f?.policyId, "filter.policy_id", MAX_ID),
      start,
      end,
      isDismissed: f?.isDismissed,
      archived: f?.archived,
      providers: (f?.cloudProviders ?? []).map(providerNameOf),
    };
  }

  function pageOf(
    pagination: PaginationRequest | undefined,
    orderBy: EventOrderBy,
  ): PageRequest & { cursorMode: boolean; page: number } {
    const limit = pagination?.limit ?? DEFAULT_PAGE_SIZE;
    if (limit < 1 || limit > MAX_PAGE_SIZE) throw invalid(`pagination.limit must be 1 to ${MAX_PAGE_SIZE}.`);
    if (!(orderBy in EventOrderBy)) throw invalid("order_by is not a known order.");
    const descending = pagination?.order !== Order.ASCENDING;
    if (pagination?.position.case === "page") {
      const page = Math.max(1, pagination.position.value);
      return { orderBy, descending, limit, offset: (page - 1) * limit, cursorMode: false, page };
    }
    const cursor = pagination?.position.case === "cursor" ? pagination.position.value : undefined;
    const after = decodeKeyset(cursor?.end);
    const before = decodeKeyset(cursor?.start);
    if (after === "invalid" || before === "invalid")
      throw invalid("pagination.cursor is not a cursor this list returned.");
    return { orderBy, descending, limit, after, before, cursorMode: true, page: 1 };
  }

  function paginationOf(
    page: ReturnType<typeof pageOf>,
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

  async function scopesOf(tenantId: string, rows: EventRow[]): Promise<Map<string, Scope>> {
    const wanted = [...new Set(rows.map((r) => r.resource_scope).filter((s): s is string => Boolean(s)))];
    const out = new Map<string, Scope>();
    if (wanted.length === 0) return out;
    const nodes = await db
      .select()
      .from(hierarchyNodes)
      .where(and(eq(hierarchyNodes.tenantId, tenantId), inArray(hierarchyNodes.externalId, wanted)));
    for (const node of nodes) {
      out.set(
        node.externalId,
        create(ScopeSchema, {
          provider: cloudProviderOf(node.provider.toUpperCase()),
          externalId: node.externalId,
          name: node.name,
          type: SCOPE_TYPES[node.type] ?? ScopeType.UNSPECIFIED,
          connectorId: node.connectorId,
        }),
      );
    }
    return out;
  }

  function eventMessage(row: EventRow, scopes: Map<string, Scope>): PolicyEvent {
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
      user: create(EventUserSchema, {
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
      }),
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

  function resourceEventMessage(row: ResourceEventRow, scopes: Map<string, Scope>): ResourceEvent {
    return create(ResourceEventSchema, {
      event: eventMessage(row, scopes),
      lastOccurredTime: timestampFromDate(asDate(row.re_last_occurred_at) as Date),
      isDismissed: row.re_is_dismissed,
    });
  }

  function summaryMessage(counts: SummaryCounts): EventSummary {
    return create(EventSummarySchema, counts);
  }

  async function existingEvent(caller: Caller, id: string): Promise<EventRow> {
    const trimmed = id.trim();
    if (!trimmed) throw invalid("id is required.");
    if (trimmed.length > MAX_ID) throw invalid(`id must be at most ${MAX_ID} characters.`);
    const row = await findEvent(db, caller.tenantId, trimmed);
    if (!row) throw new ConnectError("No such event in this tenant.", Code.NotFound);
    return row;
  }

  async function audit(
    ctx: HandlerContext,
    action: string,
    targetId: string,
    details: Record<string, unknown>,
  ) {
    await writeAudit(db, callContext(ctx), {
      action: `PolicyEventStoreService.${action}`,
      targetType: "policy_event",
      targetId,
      details,
    });
  }

  async function connectorIdsOf(caller: Caller, connectorId: string | undefined): Promise<string[]> {
    if (connectorId !== undefined) {
      const id = boundedText(connectorId, "connector_id", MAX_ID);
      if (!id) throw invalid("connector_id must not be empty.");
      const [row] = await db
        .select({ id: connectors.id })
        .from(connectors)
        .where(and(eq(connectors.tenantId, caller.tenantId), eq(connectors.id, id)));
      if (!row) throw new ConnectError("No such connector in this tenant.", Code.NotFound);
      return [row.id];
    }
    const rows = await db
      .select({ id: connectors.id })
      .from(connectors)
      .where(eq(connectors.tenantId, caller.tenantId));
    return rows.map((r) => r.id);
  }

  function exportParams(filter: EventFilter | undefined): Record<string, unknown> {
    return {
      filter: toJson(EventFilterSchema, filter ?? create(EventFilterSchema)) as Record<string, unknown>,
    };
  }

  exports.define("events", async (tenantId, params) => {
    const filter = fromJson(EventFilterSchema, (params.filter ?? {}) as JsonValue);
    const q = await queryOf(tenantId, filter);
    const total = await countEvents(db, tenantId, q);
    async function* pages() {
      let after: { value: string; id: string } | undefined;
      for (;;) {
        const { rows, hasMore } = await listEvents(db, tenantId, q, {
          orderBy: EventOrderBy.OCCURRED_TIME,
          descending: true,
          limit: EXPORT_PAGE,
          after,
        });
        yield rows.map((r) => [
          r.id,
          asDate(r.occurred_at)?.toISOString() ?? "",
          r.type,
          r.cloud_provider,
          r.deployment_name ?? "",
          r.bundle_key ?? "",
          r.bundle_id ?? "",
          r.namespace ?? "",
          r.resource_name ?? "",
          r.resource_external_id ?? "",
          r.resource_native_type ?? "",
          r.resource_scope ?? "",
          r.user_identifier ?? "",
          displayUserName(r.user_identifier, r.user_name),
          r.source_app_name ?? "",
          r.is_dismissed,
          r.archived,
        ]);
        const last = rows.at(-1);
        if (!hasMore || !last) return;
        after = { value: last.sort_value, id: last.id };
      }
    }
    return {
      header: [
        "id",
        "occurred_at",
        "type",
        "cloud_provider",
        "policy_name",
        "policy_key",
        "bundle_id",
        "namespace",
        "resource_name",
        "resource_id",
        "resource_type",
        "scope",
        "user_id",
        "user_name",
        "source_app",
        "dismissed",
        "archived",
      ],
      total,
      pages: pages(),
    };
  });

  function formatOf(format: ExportFormat): "csv" | "json" {
    if (format === ExportFormat.JSON) return "json";
    if (format === ExportFormat.CSV || format === ExportFormat.UNSPECIFIED) return "csv";
    throw invalid("format must be CSV or JSON.");
  }

  return {
    async get(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existingEvent(caller, req.id);
      return { event: eventMessage(row, await scopesOf(caller.tenantId, [row])) };
    },

    async list(req, ctx) {
      const caller = requireCaller(ctx);
      const q = await queryOf(caller.tenantId, req.filter);
      const page = pageOf(req.pagination, req.orderBy);
      const { rows, hasMore } = await listResourceEvents(db, caller.tenantId, q, page);
      const total = await countResourceEvents(
        db,
        caller.tenantId,
        q,
        page.cursorMode ? COUNT_CAP : undefined,
      );
      const scopes = await scopesOf(caller.tenantId, rows);
      return {
        items: rows.map((r) => resourceEventMessage(r, scopes)),
        pagination: paginationOf(page, rows, hasMore, total),
      };
    },

    async listEvents(req, ctx) {
      const caller = requireCaller(ctx);
      const q = await queryOf(caller.tenantId, req.filter);
      const page = pageOf(req.pagination, req.orderBy);
      const { rows, hasMore } = await listEvents(db, caller.tenantId, q, page);
      const total = await countEvents(db, caller.tenantId, q, page.cursorMode ? COUNT_CAP : undefined);
      const scopes = await scopesOf(caller.tenantId, rows);
      return {
        items: rows.map((r) => eventMessage(r, scopes)),
        pagination: paginationOf(page, rows, hasMore, total),
      };
    },

    async export(req, ctx) {
      const caller = requireCaller(ctx);
      await queryOf(caller.tenantId, req.filter);
      const result = await exports.exportNow({
        tenantId: caller.tenantId,
        kind: "events",
        params: exportParams(req.filter),
        format: formatOf(req.format),
        createdBy: caller.id,
      });
      return { presignedUrl: result.presignedUrl };
    },

    async exportAsync(req, ctx) {
      const caller = requireCaller(ctx);
      await queryOf(caller.tenantId, req.filter);
      const result = await exports.exportLater({
        tenantId: caller.tenantId,
        kind: "events",
        params: exportParams(req.filter),
        format: formatOf(req.format),
        createdBy: caller.id,
      });
      return { presignedUrl: result.presignedUrl, jobId: result.jobId };
    },

    async listHierarchyEvents(req, ctx) {
      const caller = requireCaller(ctx);
      const parent = boundedText(req.parentExternalId, "parent_external_id", MAX_TEXT);
      const view = await hierarchyOf(caller.tenantId);
      if (parent && !view.nodes.has(parent.toLowerCase()))
        throw new ConnectError("No such scope in this tenant's connected clouds.", Code.NotFound);
      const q = await queryOf(caller.tenantId, req.filter);
      const byScope = new Map(
        (await summarizeByScope(db, caller.tenantId, q)).map((r) => [r.scope ?? "", summaryOf(r)]),
      );
      const childIds = view.children.get(parent?.toLowerCase() ?? "") ?? [];
      const items = childIds.map((id) => {
        const node = view.nodes.get(id);
        const total = summaryOf(undefined);
        for (const scope of descendants(view, id)) {
          const counts = byScope.get(scope);
          if (!counts) continue;
          for (const key of Object.keys(total) as (keyof SummaryCounts)[]) total[key] += counts[key];
        }
        // Azure resources live below resource groups that may not be synced yet.
        for (const [scope, counts] of byScope) {
          if (scope.startsWith(`${id}/`) && !view.nodes.has(scope)) {
            for (const key of Object.keys(total) as (keyof SummaryCounts)[]) total[key] += counts[key];
          }
        }
        return {
          scope: create(ScopeSchema, {
            provider: cloudProviderOf((node?.provider ?? "").toUpperCase()),
            externalId: node?.externalId ?? id,
            name: node?.name ?? id,
            type: SCOPE_TYPES[node?.type ?? ""] ?? ScopeType.UNSPECIFIED,
            connectorId: node?.connectorId ?? "",
          }),
          summary: summaryMessage(total),
          hasChildren: (view.children.get(id)?.length ?? 0) > 0,
        };
      });
      return { items };
    },

    async update(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existingEvent(caller, req.id);
      await setEventDismissed(db, caller.tenantId, row.id, req.isDismissed);
      await audit(ctx, "Update", row.id, { isDismissed: req.isDismissed });
      const updated = (await findEvent(db, caller.tenantId, row.id)) ?? row;
      return { event: eventMessage(updated, await scopesOf(caller.tenantId, [updated])) };
    },

    async updateResources(req, ctx) {
      const caller = requireCaller(ctx);
      const row = await existingEvent(caller, req.id);
      const resourceEvent = await findResourceEventOf(db, caller.tenantId, row.id);
      if (!resourceEvent)
        throw new ConnectError("This event does not belong to a resource event.", Code.NotFound);
      await setResourceDismissed(db, caller.tenantId, resourceEvent.re_id, req.isDismissed);
      await audit(ctx, "UpdateResources", resourceEvent.re_id, {
        isDismissed: req.isDismissed,
        eventId: row.id,
      });
      const updated = (await findResourceEventOf(db, caller.tenantId, row.id)) ?? resourceEvent;
      return { resourceEvent: resourceEventMessage(updated, await scopesOf(caller.tenantId, [updated])) };
    },

    async summary(req, ctx) {
      const caller = requireCaller(ctx);
      const q = await queryOf(caller.tenantId, req.filter);
      const [counts, prevented, alerted, waived] = await Promise.all([
        summarize(db, caller.tenantId, q),
        mostActive(db, caller.tenantId, q, "PREVENTION"),
        mostActive(db, caller.tenantId, q, "ALERT"),
        mostActive(db, caller.tenantId, q, "WAIVED"),
      ]);
      const bundleCounts = (rows: typeof prevented) =>
        rows.map((r) => ({
          bundleId: r.bundle_id,
          name: r.name,
          key: r.key,
          policySlug: r.policy_slug,
          count: Number(r.count),
        }));
      return {
        summary: summaryMessage(counts),
        mostActiveBundles: {
          prevented: bundleCounts(prevented),
          alerted: bundleCounts(alerted),
          waived: bundleCounts(waived),
        },
      };
    },

    async summaryEvents(req, ctx) {
      const caller = requireCaller(ctx);
      const q = await queryOf(caller.tenantId, req.filter);
      const bucket =
        req.bucketSize === BucketSize.HOUR ? "hour" : req.bucketSize === BucketSize.WEEK ? "week" : "day";
      const [total, rows] = await Promise.all([
        summarize(db, caller.tenantId, q),
        summarizeBuckets(db, caller.tenantId, q, bucket),
      ]);
      return {
        total: summaryMessage(total),
        buckets: rows.map((r) => ({
          start: timestampFromDate(asDate(r.bucket) as Date),
          summary: summaryMessage(summaryOf(r)),
        })),
      };
    },

    async summaryResources(req, ctx) {
      const caller = requireCaller(ctx);
      const q = await queryOf(caller.tenantId, req.filter);
      const rows = await summarizeResourceTypes(db, caller.tenantId, q);
      const total = summaryOf(undefined);
      for (const r of rows) {
        const counts = summaryOf(r);
        for (const key of Object.keys(total) as (keyof SummaryCounts)[]) total[key] += counts[key];
      }
      return {
        total: summaryMessage(total),
        resourceTypes: rows.map((r) => ({
          resourceType: r.resource_type ?? "",
          summary: summaryMessage(summaryOf(r)),
        })),
      };
    },

    async listResourceTypes(req, ctx) {
      const caller = requireCaller(ctx);
      const provider =
        req.cloudProvider === undefined || req.cloudProvider === CloudProvider.UNSPECIFIED
          ? undefined
          : providerNameOf(req.cloudProvider);
      return { resourceTypes: await resourceTypes(db, caller.tenantId, provider) };
    },

    async listUserNames(req, ctx) {
      const caller = requireCaller(ctx);
      const search = boundedText(req.search, "search", 100);
      const rows = await userNames(db, caller.tenantId, search && search.length >= 2 ? search : undefined);
      return {
        users: rows.map((r) =>
          create(EventUserSchema, {
            identifier: r.user_identifier ?? "",
            name: displayUserName(r.user_identifier, r.user_name),
            sourceAppIdentifier: r.source_app_identifier ?? "",
            sourceAppName: r.source_app_name ?? "",
            type:
              r.user_type === "USER"
                ? EventUserType.USER
                : r.user_type === "APPLICATION"
                  ? EventUserType.APPLICATION
                  : EventUserType.UNSPECIFIED,
          }),
        ),
      };
    },

    async getCompliantTrend(req, ctx) {
      const caller = requireCaller(ctx);
      const bundleId = boundedText(req.bundleId, "bundle_id", MAX_ID);
      if (!bundleId) throw invalid("bundle_id is required.");
      const [bundle] = await db
        .select({ id: bundles.id })
        .from(bundles)
        .where(and(eq(bundles.tenantId, caller.tenantId), eq(bundles.id, bundleId)));
      if (!bundle) throw new ConnectError("No such bundle in this tenant.", Code.NotFound);
      const end = dateOf(req.range?.end) ?? new Date();
      const start = dateOf(req.range?.start) ?? new Date(end.getTime() - 30 * DAY_MS);
      if (start.getTime() >= end.getTime()) throw invalid("range: start must be before end.");
      if (end.getTime() - start.getTime() > MAX_TREND_DAYS * DAY_MS)
        throw invalid(`range may span at most ${MAX_TREND_DAYS} days.`);
      const trend = await complianceTrend(db, caller.tenantId, bundle.id, start, end);
      // Each day counts every resource by its last known state on or before that day.
      const state = new Map<string, boolean>();
      const points = [];
      let i = 0;
      const firstDay = Date.parse(`${start.toISOString().slice(0, 10)}T00:00:00Z`);
      for (let day = firstDay; day < end.getTime(); day += DAY_MS) {
        const label = new Date(day).toISOString().slice(0, 10);
        while (i < trend.observations.length && (trend.observations[i]?.day ?? "") <= label) {
          const o = trend.observations[i] as { resource: string; compliant: boolean };
          state.set(o.resource, o.compliant);
          i += 1;
        }
        let compliant = 0;
        for (const value of state.values()) if (value) compliant += 1;
        points.push({
          time: timestampFromDate(new Date(day)),
          totals: { compliant, nonCompliant: state.size - compliant },
        });
      }
      return {
        trend: {
          overall: {
            compliant: Number(trend.overall?.compliant ?? 0),
            nonCompliant: Number(trend.overall?.non_compliant ?? 0),
          },
          withinRange: {
            compliant: Number(trend.within?.compliant ?? 0),
            nonCompliant: Number(trend.within?.non_compliant ?? 0),
          },
          points,
        },
      };
    },

    async getComplianceRequestLastFetchedAt(req, ctx) {
      const caller = requireCaller(ctx);
      const ids = await connectorIdsOf(caller, req.connectorId);
      if (ids.length === 0) return {};
      const [row] = await db
        .select({ at: max(connectors.eventsFetchedAt) })
        .from(connectors)
        .where(and(eq(connectors.tenantId, caller.tenantId), inArray(connectors.id, ids)));
      return row?.at ? { lastFetchedAt: timestampFromDate(asDate(row.at) as Date) } : {};
    },

    async triggerFetch(req, ctx) {
      const caller = requireCaller(ctx);
      const ids = await connectorIdsOf(caller, req.connectorId);
      const jobId = await pipeline.requestFetch({
        tenantId: caller.tenantId,
        connectorIds: ids,
        createdBy: caller.id,
        kind: "events:fetch",
      });
      await audit(ctx, "TriggerFetch", jobId, { connectorIds: ids });
      return { jobId };
    },

    async triggerBundleFetch(req, ctx) {
      const caller = requireCaller(ctx);
      const bundleId = boundedText(req.bundleId, "bundle_id", MAX_ID);
      if (!bundleId) throw invalid("bundle_id is required.");
      const [bundle] = await db
        .select({ id: bundles.id })
        .from(bundles)
        .where(
          and(eq(bundles.tenantId, caller.tenantId), eq(bundles.id, bundleId), isNull(bundles.deletedAt)),
        );
      if (!bundle) throw new ConnectError("No such bundle in this tenant.", Code.NotFound);
      const rows = await db
        .selectDistinct({ connectorId: deployments.connectorId })
        .from(deployments)
        .where(and(eq(deployments.tenantId, caller.tenantId), eq(deployments.bundleId, bundle.id)));
      const ids = rows.map((r) => r.connectorId).filter((id): id is string => Boolean(id));
      const jobId = await pipeline.requestFetch({
        tenantId: caller.tenantId,
        connectorIds: ids,
        createdBy: caller.id,
        kind: "events:bundle-fetch",
      });
      await audit(ctx, "TriggerBundleFetch", jobId, { bundleId: bundle.id, connectorIds: ids });
      return { jobId };
    },

    async sync(_req, ctx) {
      const caller = requireCaller(ctx);
      const ids = await connectorIdsOf(caller, undefined);
      const jobId = await pipeline.requestFetch({
        tenantId: caller.tenantId,
        connectorIds: ids,
        createdBy: caller.id,
        kind: "events:sync",
        resync: true,
      });
      await audit(ctx, "Sync", jobId, { connectorIds: ids });
      return { jobId };
    },
  };
}

/** Starts the fetch jobs and returns the service over them. */
export async function startPolicyEventStore(deps: {
  db: Database;
  jobs: JobQueue;
  runtime: ConnectorRuntime;
  catalogue: Catalogue;
  logger: Logger;
  exports: ExportService;
}): Promise<ServiceImpl<typeof PolicyEventStoreService>> {
  const pipeline = await startEventPipeline(deps);
  return createPolicyEventStoreService({ db: deps.db, pipeline, exports: deps.exports });
}
