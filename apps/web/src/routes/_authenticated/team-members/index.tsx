import { createFileRoute } from "@tanstack/react-router";
import { TeamMembersPage } from "@/features/team/components/team-members-page";

export const Route = createFileRoute("/_authenticated/team-members/")({
  component: TeamMembersPage,
});
