import type { ServiceImpl } from "@connectrpc/connect";
import type { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import type { EventServiceDeps } from "./event-deps";
import { export$ } from "./rpc/export";
import { exportAsync } from "./rpc/export-async";
import { get } from "./rpc/get";
import { getComplianceRequestLastFetchedAt } from "./rpc/get-compliance-request-last-fetched-at";
import { getCompliantTrend } from "./rpc/get-compliant-trend";
import { getExportStatus } from "./rpc/get-export-status";
import { list } from "./rpc/list";
import { listEvents } from "./rpc/list-events";
import { listHierarchyEvents } from "./rpc/list-hierarchy-events";
import { listResourceTypes } from "./rpc/list-resource-types";
import { listUserNames } from "./rpc/list-user-names";
import { summary } from "./rpc/summary";
import { summaryEvents } from "./rpc/summary-events";
import { summaryResources } from "./rpc/summary-resources";
import { sync } from "./rpc/sync";
import { triggerBundleFetch } from "./rpc/trigger-bundle-fetch";
import { triggerFetch } from "./rpc/trigger-fetch";
import { update } from "./rpc/update";
import { updateResources } from "./rpc/update-resources";

/** The policy event store: events read from the clouds, their summaries, exports and fetches. */
export function createPolicyEventStoreService(
  deps: EventServiceDeps,
): ServiceImpl<typeof PolicyEventStoreService> {
  return {
    get: (req, ctx) => get(deps, req, ctx),
    list: (req, ctx) => list(deps, req, ctx),
    listEvents: (req, ctx) => listEvents(deps, req, ctx),
    export: (req, ctx) => export$(deps, req, ctx),
    exportAsync: (req, ctx) => exportAsync(deps, req, ctx),
    getExportStatus: (req, ctx) => getExportStatus(deps, req, ctx),
    listHierarchyEvents: (req, ctx) => listHierarchyEvents(deps, req, ctx),
    update: (req, ctx) => update(deps, req, ctx),
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
    sync: (req, ctx) => sync(deps, req, ctx),
  };
}
