import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { useQuery } from "@tanstack/react-query";
import { currentTenantQuery } from "./current-tenant";

export { Permission };

export interface PermissionCheck {
  has(permission: Permission): boolean;
  hasAll(...permissions: Permission[]): boolean;
  hasAny(...permissions: Permission[]): boolean;
}

export function permissionCheck(granted: readonly Permission[]): PermissionCheck {
  const set = new Set(granted);
  return {
    has: (permission) => set.has(permission),
    hasAll: (...permissions) => permissions.every((p) => set.has(p)),
    hasAny: (...permissions) => permissions.some((p) => set.has(p)),
  };
}

/** What the signed-in user may do in the active tenant; used to hide actions, never to enforce. */
export function usePermissions(): PermissionCheck {
  const { data } = useQuery(currentTenantQuery());
  return permissionCheck(data?.permissions ?? []);
}
