import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { DeleteSettingsResponseSchema } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { requireCaller } from "../../../rpc/call-context";
import { auditCall } from "../../audit/audit-log";
import { deleteTenantSso } from "../sso-repository";
import type { SsoServiceDeps } from "../sso-settings";

export async function deleteSettings(
  deps: SsoServiceDeps,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DeleteSettingsResponseSchema>> {
  const caller = requireCaller(ctx);
  await deleteTenantSso(deps.db, caller.tenantId);
  await auditCall(deps.db, ctx, { targetType: "tenant", targetId: caller.tenantId, details: {} });
  return {};
}
