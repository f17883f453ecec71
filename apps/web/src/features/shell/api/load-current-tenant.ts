import { Code, ConnectError } from "@connectrpc/connect";
import type { QueryClient } from "@tanstack/react-query";
import { currentTenantQuery } from "@/lib/current-tenant";
import { canUseApp } from "../nav-items";

export type TenantAccess = "granted" | "blocked" | "signed-out";

/**
 * Loads the caller's tenant, role and permissions for the signed-in area and says whether they may
 * enter it. No tenant or no role answers PermissionDenied or FailedPrecondition.
 */
export async function loadCurrentTenant(queryClient: QueryClient): Promise<TenantAccess> {
  try {
    const current = await queryClient.ensureQueryData(currentTenantQuery());
    return canUseApp(current.permissions) ? "granted" : "blocked";
  } catch (error) {
    if (error instanceof ConnectError) {
      if (error.code === Code.PermissionDenied || error.code === Code.FailedPrecondition) return "blocked";
      if (error.code === Code.Unauthenticated) return "signed-out";
    }
    throw error;
  }
}
