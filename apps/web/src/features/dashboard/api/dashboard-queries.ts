import { createQueryOptions } from "@connectrpc/connect-query";
import { ConnectorService } from "@palisade/api/gen/palisade/connector/v1/connector_service_pb";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyEventStoreService } from "@palisade/api/gen/palisade/event/v1/event_service_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { appTransport, preloadedReadTransport } from "@/lib/transport";

const TREND_CHOICES = 30;

/** Sent as the Connect GET that the dashboard's head preloads. */
export function bundleSummaryQuery() {
  return createQueryOptions(
    DeploymentManagerService.method.summaryBundle,
    {},
    { transport: preloadedReadTransport },
  );
}

export function waiverSummaryQuery() {
  return createQueryOptions(WaiverService.method.summary, { filter: {} }, { transport: appTransport });
}

/** The event counts of the whole tenant. */
export function eventTotalsQuery() {
  return createQueryOptions(
    PolicyEventStoreService.method.summary,
    { filter: {} },
    { transport: appTransport },
  );
}

/** The policies the compliance trend can be shown for: the first page of deployed bundles. */
export function trendBundlesQuery() {
  return createQueryOptions(
    DeploymentManagerService.method.listBundle,
    {
      pagination: { position: { case: "page", value: 1 }, limit: TREND_CHOICES },
      filter: { policySlugs: [] },
    },
    { transport: appTransport },
  );
}

export function complianceTrendQuery(bundleId: string) {
  return createQueryOptions(
    PolicyEventStoreService.method.getCompliantTrend,
    { bundleId },
    { transport: appTransport },
  );
}

/** Whether any cloud is connected: the first connector is enough to know. */
export function connectorCountQuery() {
  return createQueryOptions(
    ConnectorService.method.listConnectors,
    { pagination: { position: { case: "page", value: 1 }, limit: 1 } },
    { transport: appTransport },
  );
}
