import { createQueryOptions } from "@connectrpc/connect-query";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { appTransport } from "@/lib/transport";
import { connectQueryKey } from "./waiver-rpc";

export const WAIVERS_PAGE_SIZE = 30;
const KEY_LENGTH = 7;

/** The policy of the detail page: addressed by its bundle id, or by its 7-character key. */
export function policyBundleQuery(policyId: string) {
  return createQueryOptions(
    DeploymentManagerService.method.getBundle,
    {
      lookup:
        policyId.length === KEY_LENGTH ? { case: "key", value: policyId } : { case: "id", value: policyId },
    },
    { transport: appTransport },
  );
}

export function policyWaiversQuery(key: string, page: number) {
  return createQueryOptions(
    WaiverService.method.list,
    { filter: { key }, pagination: { position: { case: "page", value: page }, limit: WAIVERS_PAGE_SIZE } },
    { transport: appTransport },
  );
}

export function policyWaiverSummaryQuery(key: string) {
  return createQueryOptions(
    WaiverService.method.summary,
    { filter: { keys: [key] } },
    { transport: appTransport },
  );
}

/** Everything a waiver change can alter: the lists, the counts and the policies' waiver counts. */
export const refreshedAfterWaiverChange = [
  connectQueryKey("palisade.waiver.v1.WaiverService", "List"),
  connectQueryKey("palisade.waiver.v1.WaiverService", "Summary"),
  connectQueryKey("palisade.policy.v1.PolicyService", "GetPolicies"),
];
