import { createFileRoute } from "@tanstack/react-router";
import { TeamMembersPage } from "@/features/team/components/team-members-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/team-members/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { membersQuery } = await import("@/features/team/api/team-queries");
    await loadPageData(context.queryClient, membersQuery());
  },
  component: TeamMembersPage,
});
