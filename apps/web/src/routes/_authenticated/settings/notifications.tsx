import { createFileRoute } from "@tanstack/react-router";
import { NotificationSettingsPage } from "@/features/notification/components/notification-settings-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/settings/notifications")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { notificationSettingsQuery } = await import("@/features/notification/api/notification-queries");
    await loadPageData(context.queryClient, notificationSettingsQuery());
  },
  component: NotificationSettingsPage,
});
