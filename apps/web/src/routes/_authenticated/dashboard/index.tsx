import { createFileRoute } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";
import { useAfterFirstPaint } from "@/lib/after-first-paint";
import { loadPageData } from "@/lib/page-data";

// Below the dashboard's figures: loaded once the page is on screen, so it stays out of its first load and paint.
const WaiverAnalyticsCard = lazy(() =>
  import("@/features/waivers/components/waiver-analytics-card").then((m) => ({
    default: m.WaiverAnalyticsCard,
  })),
);

export const Route = createFileRoute("/_authenticated/dashboard/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { bundleSummaryQuery } = await import("@/features/dashboard/api/dashboard-queries");
    await loadPageData(context.queryClient, bundleSummaryQuery());
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  const painted = useAfterFirstPaint();
  return (
    <>
      <DashboardPage />
      {painted && (
        <Suspense fallback={null}>
          <WaiverAnalyticsCard />
        </Suspense>
      )}
    </>
  );
}
