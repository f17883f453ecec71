import type { ServiceImpl } from "@connectrpc/connect";
import type { NotificationService } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import type { NotificationServiceDeps } from "./notification-deps";
import { decideFromChat } from "./rpc/decide-from-chat";
import { getSettings } from "./rpc/get-settings";
import { updateSettings } from "./rpc/update-settings";

/** NotificationService: what a tenant is told about, where, and decisions taken from chat. */
export function createNotificationService(
  deps: NotificationServiceDeps,
): ServiceImpl<typeof NotificationService> {
  return {
    getSettings: (req, ctx) => getSettings(deps, req, ctx),
    updateSettings: (req, ctx) => updateSettings(deps, req, ctx),
    decideFromChat: (req, ctx) => decideFromChat(deps, req, ctx),
  };
}
