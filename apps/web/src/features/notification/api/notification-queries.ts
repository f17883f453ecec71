import { createQueryOptions, useMutation } from "@connectrpc/connect-query";
import { NotificationService } from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { useQueryClient } from "@tanstack/react-query";
import { invalidateMethods } from "@/lib/query-keys";
import { appTransport } from "@/lib/transport";

/** Read again every few seconds while open, so a delivery's outcome shows as it happens. */
const DELIVERY_POLL_MS = 5_000;

export function notificationSettingsQuery() {
  return {
    ...createQueryOptions(NotificationService.method.getSettings, {}, { transport: appTransport }),
    refetchInterval: DELIVERY_POLL_MS,
  };
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation(NotificationService.method.updateSettings, {
    onSuccess: () => invalidateMethods(queryClient, [NotificationService.method.getSettings]),
  });
}

export function useDecideFromChat() {
  return useMutation(NotificationService.method.decideFromChat);
}
