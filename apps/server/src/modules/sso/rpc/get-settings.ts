import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { GetSettingsRequest, GetSettingsResponseSchema } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { requireCaller } from "../../../rpc/call-context";
import { findTenantSso } from "../sso-repository";
import { type SsoServiceDeps, ssoSettingsMessage } from "../sso-settings";

export async function getSettings(
  deps: SsoServiceDeps,
  _req: GetSettingsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetSettingsResponseSchema>> {
  const caller = requireCaller(ctx);
  const record = await findTenantSso(deps.db, caller.tenantId);
  return { settings: record ? ssoSettingsMessage(record, deps.publicUrl) : undefined };
}
