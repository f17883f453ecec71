import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { DeploymentManagerService } from "@palisade/api/gen/palisade/deployment/v1/deployment_service_pb";
import { PolicyService } from "@palisade/api/gen/palisade/policy/v1/policy_pb";
import { WaiverService } from "@palisade/api/gen/palisade/waiver/v1/waiver_service_pb";
import { useQueryClient } from "@tanstack/react-query";
import { bundleLookup } from "@/lib/bundle-lookup";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

export const WAIVERS_PAGE_SIZE = 30;

/** The policy of the detail page: addressed by its bundle id, or by its policy key. */
export function policyBundleQuery(policyId: string) {
  return createQueryOptions(
    DeploymentManagerService.method.getBundle,
    { lookup: bundleLookup(policyId) },
    { transport: appTransport },
  );
}

/** "Expiring soon": active waivers that end within this many hours. */
export const EXPIRING_SOON_HOURS = 24;

/** Open lists are read again this often, so approvals, expiries and cloud outcomes show without a reload. */
export const WAIVER_POLL_MS = 5_000;

export function policyWaiversQuery(key: string, page: number, expiringSoon = false) {
  return {
    ...createQueryOptions(
      WaiverService.method.list,
      {
        filter: { key, ...(expiringSoon ? { expiringWithinHours: EXPIRING_SOON_HOURS } : {}) },
        pagination: { position: { case: "page", value: page }, limit: WAIVERS_PAGE_SIZE },
      },
      { transport: appTransport },
    ),
    refetchInterval: WAIVER_POLL_MS,
  };
}

export function policyWaiverSummaryQuery(key: string) {
  return {
    ...createQueryOptions(
      WaiverService.method.summary,
      { filter: { keys: [key] } },
      { transport: appTransport },
    ),
    refetchInterval: WAIVER_POLL_MS,
  };
}

/** Everything a waiver change can alter: the lists, the counts and the policies' waiver counts. */
const changedByWaiverChange = [
  WaiverService.method.list,
  WaiverService.method.summary,
  PolicyService.method.getPolicies,
];

/** Approves or rejects a waiver. The lists are read again whether or not the change went through. */
export function useUpdateWaiver() {
  const queryClient = useQueryClient();
  return useMutation(WaiverService.method.update, {
    onSettled: () => invalidateMethods(queryClient, changedByWaiverChange),
  });
}

export function useCancelWaiver() {
  const queryClient = useQueryClient();
  return useMutation(WaiverService.method.cancel, {
    onSettled: () => invalidateMethods(queryClient, changedByWaiverChange),
  });
}
