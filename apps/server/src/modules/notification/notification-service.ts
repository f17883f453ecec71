import type { NotificationRpc, NotificationServiceDeps } from "./notification-deps";
import { decideFromChatRpc } from "./rpc/decide-from-chat";
import { getSettings } from "./rpc/get-settings";
import { updateSettings } from "./rpc/update-settings";

/** NotificationService: what a tenant is told about, where, and decisions taken from chat. */
export function createNotificationService(deps: NotificationServiceDeps): NotificationRpc {
  return {
    getSettings: getSettings(deps),
    updateSettings: updateSettings(deps),
    decideFromChat: decideFromChatRpc(deps),
  };
}
