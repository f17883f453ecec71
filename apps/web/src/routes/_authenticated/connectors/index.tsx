import { createFileRoute } from "@tanstack/react-router";
import { ConnectorsPage } from "@/features/connectors/components/connectors-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/connectors/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { connectorsQuery } = await import("@/lib/connectors-query");
    await loadPageData(context.queryClient, connectorsQuery());
  },
  component: ConnectorsPage,
});
