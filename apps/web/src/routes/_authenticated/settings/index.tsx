import { createFileRoute } from "@tanstack/react-router";
import { TenantSettingsPage } from "@/features/settings/components/tenant-settings-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/settings/")({
  loader: async ({ context }) => {
    // Loaded with the page: the tenant's contract stays out of the app's first load.
    const { currentTenantQuery } = await import("@/lib/current-tenant");
    await loadPageData(context.queryClient, currentTenantQuery());
  },
  component: TenantSettingsPage,
});
