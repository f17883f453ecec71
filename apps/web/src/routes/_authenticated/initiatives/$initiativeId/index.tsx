import { createFileRoute, stripSearchParams } from "@tanstack/react-router";
import { InitiativeDetailPage } from "@/features/initiatives/components/initiative-detail-page";
import { loadPageData } from "@/lib/page-data";
import { initiativeDetailSearchSchema } from "./-search";

export const Route = createFileRoute("/_authenticated/initiatives/$initiativeId/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context, params }) => {
    const { initiativeQuery } = await import("@/features/initiatives/api/initiative-queries");
    await loadPageData(context.queryClient, initiativeQuery(params.initiativeId));
  },
  validateSearch: initiativeDetailSearchSchema,
  // The default tab stays out of the address so shared links remain short.
  search: { middlewares: [stripSearchParams({ tab: "policies" })] },
  component: InitiativeDetailRoute,
});

function InitiativeDetailRoute() {
  const { initiativeId } = Route.useParams();
  const { tab, clause, policy } = Route.useSearch();
  return <InitiativeDetailPage initiativeId={initiativeId} tab={tab} clause={clause} policy={policy} />;
}
