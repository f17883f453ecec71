import { createFileRoute } from "@tanstack/react-router";
import { TenantSettingsPage } from "@/features/settings/components/tenant-settings-page";
import { currentTenantQuery } from "@/lib/current-tenant";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/settings/")({
  loader: async ({ context }) => {
    await loadPageData(context.queryClient, currentTenantQuery());
  },
  component: TenantSettingsPage,
});
