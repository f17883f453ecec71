import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  DeleteSettingsRequest,
  DeleteSettingsResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { deleteTenantSso, findTenantSso } from "../sso-repository";
import type { SsoServiceDeps } from "../sso-settings";

export async function deleteSettings(
  deps: SsoServiceDeps,
  _req: DeleteSettingsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DeleteSettingsResponseSchema>> {
  const caller = requireCaller(ctx);
  const before = await findTenantSso(deps.db, caller.tenantId);
  await deps.db.transaction(async (tx) => {
    await deleteTenantSso(tx, caller.tenantId);
    await recordAudit(tx, ctx, {
      target: { type: "sso", id: caller.tenantId, name: "Single sign-on" },
      before: before
        ? {
            protocol: before.settings.protocol,
            issuer: before.provider?.issuer,
            domains: before.domains.map((d) => d.domain),
            ssoRequired: before.settings.ssoRequired,
          }
        : null,
    });
  });
  return {};
}
