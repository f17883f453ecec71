import { requireCaller } from "../../../rpc/call-context";
import type { NotificationRpc, NotificationServiceDeps } from "../notification-deps";
import { notificationSettingsMessage } from "../notification-message";
import { findNotificationSettings, listDeliveries } from "../notification-repository";

export function getSettings(deps: NotificationServiceDeps): NotificationRpc["getSettings"] {
  return async (_req, ctx) => {
    const { tenantId } = requireCaller(ctx);
    const row = await findNotificationSettings(deps.db, tenantId);
    const deliveries = await listDeliveries(deps.db, tenantId);
    return { settings: notificationSettingsMessage(deps, tenantId, row, deliveries) };
  };
}
