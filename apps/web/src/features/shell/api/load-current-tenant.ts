import { Code, ConnectError } from "@connectrpc/connect";
import type { QueryClient } from "@tanstack/react-query";
import { currentTenantQuery } from "@/lib/current-tenant";
import { errorDetailOf } from "@/lib/error-detail";
import { canUseApp } from "../nav-items";

/**
 * granted: a member whose role can see the signed-in area; no-tenant: a signed-in person who
 * belongs to no tenant yet; blocked: a role that grants no access to the area; mfa-setup: a
 * member of a tenant that requires MFA, who must set up an authenticator app first.
 */
export type TenantAccess = "granted" | "no-tenant" | "blocked" | "mfa-setup" | "signed-out";

/**
 * Loads the caller's tenant, role and permissions for the signed-in area and says whether they may
 * enter it. No tenant answers PermissionDenied, as does Require MFA (with its flag in the error's
 * detail); no role FailedPrecondition.
 */
export async function loadCurrentTenant(queryClient: QueryClient): Promise<TenantAccess> {
  try {
    const current = await queryClient.ensureQueryData(currentTenantQuery());
    return canUseApp(current.permissions) ? "granted" : "blocked";
  } catch (error) {
    if (error instanceof ConnectError) {
      if (error.code === Code.PermissionDenied)
        return errorDetailOf(error)?.mfaSetupRequired ? "mfa-setup" : "no-tenant";
      if (error.code === Code.FailedPrecondition) return "blocked";
      if (error.code === Code.Unauthenticated) return "signed-out";
    }
    throw error;
  }
}
