import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";

export function TeamMembersPage() {
  return (
    <>
      <PageHeader
        title="Team members"
        description="People who can sign in to this tenant, their roles and pending invitations. Roles decide who may read, deploy, approve waivers or change settings."
      />
      <EmptyState
        image="table"
        title="No team members to show"
        description="Members of this tenant and their pending invitations will be listed here with their role and the date they joined."
      />
    </>
  );
}
