import { createQueryOptions } from "@connectrpc/connect-query";
import { TenantService } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { appTransport } from "@/lib/transport";

export function currentTenantQuery() {
  return createQueryOptions(TenantService.method.getCurrent, {}, { transport: appTransport });
}
