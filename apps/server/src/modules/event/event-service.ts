import type { ServiceImpl } from "@connectrpc/connect";
import type { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { EventRpcDeps } from "./event-deps";
import { defineEventExport } from "./event-export";
import { exportEvents } from "./rpc/export";
import { exportEventsAsync } from "./rpc/export-async";
import { getEvent } from "./rpc/get";
import { getComplianceRequestLastFetchedAt } from "./rpc/get-compliance-request-last-fetched-at";
import { getCompliantTrend } from "./rpc/get-compliant-trend";
import { getExportStatus } from "./rpc/get-export-status";
import { listResourceEvents } from "./rpc/list";
import { listEvents } from "./rpc/list-events";
import { listHierarchyEvents } from "./rpc/list-hierarchy-events";
import { listResourceTypes } from "./rpc/list-resource-types";
import { listUserNames } from "./rpc/list-user-names";
import { summary } from "./rpc/summary";
import { summaryEvents } from "./rpc/summary-events";
import { summaryResources } from "./rpc/summary-resources";
import { syncEvents } from "./rpc/sync";
import { triggerBundleFetch } from "./rpc/trigger-bundle-fetch";
import { triggerFetch } from "./rpc/trigger-fetch";
import { updateEvent } from "./rpc/update";
import { updateResources } from "./rpc/update-resources";

/** The policy event store: events read from the clouds, their summaries, exports and fetches. */
export function createPolicyEventStoreService(
  deps: EventRpcDeps,
): ServiceImpl<typeof PolicyEventStoreService> {
  defineEventExport(deps.exports, deps.db);
  return {
    get: (req, ctx) => getEvent(deps, req, ctx),
    list: (req, ctx) => listResourceEvents(deps, req, ctx),
    listEvents: (req, ctx) => listEvents(deps, req, ctx),
    export: (req, ctx) => exportEvents(deps, req, ctx),
    exportAsync: (req, ctx) => exportEventsAsync(deps, req, ctx),
    getExportStatus: (req, ctx) => getExportStatus(deps, req, ctx),
    listHierarchyEvents: (req, ctx) => listHierarchyEvents(deps, req, ctx),
    update: (req, ctx) => updateEvent(deps, req, ctx),
    updateResources: (req, ctx) => updateResources(deps, req, ctx),
    summary: (req, ctx) => summary(deps, req, ctx),
    summaryEvents: (req, ctx) => summaryEvents(deps, req, ctx),
    summaryResources: (req, ctx) => summaryResources(deps, req, ctx),
    listResourceTypes: (req, ctx) => listResourceTypes(deps, req, ctx),
    listUserNames: (req, ctx) => listUserNames(deps, req, ctx),
    getCompliantTrend: (req, ctx) => getCompliantTrend(deps, req, ctx),
    getComplianceRequestLastFetchedAt: (req, ctx) => getComplianceRequestLastFetchedAt(deps, req, ctx),
    triggerFetch: (req, ctx) => triggerFetch(deps, req, ctx),
    triggerBundleFetch: (req, ctx) => triggerBundleFetch(deps, req, ctx),
    sync: (req, ctx) => syncEvents(deps, req, ctx),
  };
}
