import type { ServiceImpl } from "@connectrpc/connect";
import type { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { createTenant } from "./rpc/create-tenant";
import { getCurrent } from "./rpc/get-current";
import { updateSettings } from "./rpc/update-settings";
import type { TenantServiceDeps } from "./tenants";

export function createTenantService(deps: TenantServiceDeps): ServiceImpl<typeof TenantService> {
  return {
    getCurrent: (req, ctx) => getCurrent(deps, req, ctx),
    updateSettings: (req, ctx) => updateSettings(deps, req, ctx),
    createTenant: (req, ctx) => createTenant(deps, req, ctx),
  };
}
