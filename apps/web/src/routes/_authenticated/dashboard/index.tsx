import { createFileRoute } from "@tanstack/react-router";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { WaiverAnalyticsCard } from "@/features/waivers/components/waiver-analytics-card";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/dashboard/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { bundleSummaryQuery } = await import("@/features/dashboard/api/dashboard-queries");
    await loadPageData(context.queryClient, bundleSummaryQuery());
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  return (
    <>
      <DashboardPage />
      <WaiverAnalyticsCard />
    </>
  );
}
