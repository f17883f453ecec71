import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetSettingsRequest,
  GetSettingsResponseSchema,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { requireCaller } from "../../../rpc/call-context";
import type { NotificationServiceDeps } from "../notification-deps";
import { notificationSettingsMessage } from "../notification-message";
import { findNotificationSettings, listDeliveries } from "../notification-repository";

export async function getSettings(
  deps: NotificationServiceDeps,
  _req: GetSettingsRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof GetSettingsResponseSchema>> {
  const { tenantId } = requireCaller(ctx);
  const row = await findNotificationSettings(deps.db, tenantId);
  const deliveries = await listDeliveries(deps.db, tenantId);
  return { settings: notificationSettingsMessage(deps, tenantId, row, deliveries) };
}
