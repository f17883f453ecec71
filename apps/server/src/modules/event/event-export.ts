import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { ExportFormat } from "@palisade/api/gen/palisade/common/v1/common_pb";
import {
  type EventFilter,
  EventFilterSchema,
  EventOrderBy,
} from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { Database } from "../../db/database";
import { requireCaller } from "../../rpc/call-context";
import type { ExportRequest, ExportService } from "../export/export-api";
import { displayUserName } from "./display-user-name";
import { asDate } from "./event-message";
import { countEvents, listEvents } from "./event-repository";
import { exportFormatOf, parseEventFilter } from "./event-request";

export const EVENTS_EXPORT = "events";
const EXPORT_PAGE = 2000;

const HEADER = [
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
];

/**
 * What Export (written now) and ExportAsync (queued) ask of the export service alike: the caller's
 * events matching the filter, in the format asked for. The filter is checked here, so a bad filter
 * fails the call, not the export; it then travels through the job queue as JSON.
 */
export async function eventExportRequest(
  db: Database,
  req: { filter?: EventFilter; format: ExportFormat },
  ctx: HandlerContext,
): Promise<ExportRequest> {
  const caller = requireCaller(ctx);
  await parseEventFilter(db, caller.tenantId, req.filter);
  return {
    tenantId: caller.tenantId,
    kind: EVENTS_EXPORT,
    params: {
      filter: toJson(EventFilterSchema, req.filter ?? create(EventFilterSchema)) as Record<string, unknown>,
    },
    format: exportFormatOf(req.format),
    createdBy: caller.id,
    ctx,
  };
}

/** Lets the export machinery write the events a filter selects, newest first. */
export function defineEventExport(exports: ExportService, db: Database): void {
  exports.define(EVENTS_EXPORT, async (tenantId, params) => {
    const filter = fromJson(EventFilterSchema, (params.filter ?? {}) as JsonValue);
    const q = await parseEventFilter(db, tenantId, filter);
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
    return { header: HEADER, total, pages: pages() };
  });
}
