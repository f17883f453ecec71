import { createQueryOptions } from "@connectrpc/connect-query";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { preloadedReadTransport } from "@/lib/transport";

/** Sent as the Connect GET that signed-in pages preload in their head. */
export function currentTenantQuery() {
  return createQueryOptions(TenantService.method.getCurrent, {}, { transport: preloadedReadTransport });
}
