import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListDomainRequestsRequest,
  ListDomainRequestsResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { requireInstanceAdmin } from "../../../auth/instance-admin";
import { requireCaller } from "../../../rpc/call-context";
import { listUnverifiedDomains } from "../sso-repository";
import { type SsoServiceDeps, ssoDomainMessage } from "../sso-settings";

/** Every tenant's unverified single sign-on domains, for an instance administrator to check. */
export async function listDomainRequests(
  deps: SsoServiceDeps,
  _req: ListDomainRequestsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof ListDomainRequestsResponseSchema>> {
  await requireInstanceAdmin(deps.db, requireCaller(ctx), "see the domains tenants ask to verify");
  const rows = await listUnverifiedDomains(deps.db);
  return {
    requests: rows.map((row) => ({
      tenantId: row.tenantId,
      tenantName: row.tenantName,
      domain: ssoDomainMessage(row.domain),
    })),
  };
}
