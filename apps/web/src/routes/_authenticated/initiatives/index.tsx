import { createFileRoute } from "@tanstack/react-router";
import { InitiativesPage } from "@/features/initiatives/components/initiatives-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/initiatives/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { initiativesQuery } = await import("@/features/initiatives/api/initiative-queries");
    await loadPageData(context.queryClient, initiativesQuery());
  },
  component: InitiativesPage,
});
