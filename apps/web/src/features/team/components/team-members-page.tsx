import { PageHeader } from "@/components/page-header";
import { Permission, usePermissions } from "@/lib/permissions";
import { ApiKeysSection } from "./api-keys-section";
import { InvitationsSection } from "./invitations-section";
import { InviteForm } from "./invite-form";
import { MembersSection } from "./members-section";

export function TeamMembersPage() {
  const permissions = usePermissions();
  // Only hides what the user may not do; the server refuses it anyway.
  const canWrite = permissions.has(Permission.USERS_WRITE);
  return (
    <>
      <PageHeader
        title="Team members"
        description="People who can sign in to this tenant, their roles and pending invitations. Roles decide who may read, deploy, approve waivers or change settings."
      />
      <MembersSection canWrite={canWrite} />
      {canWrite && <InviteForm />}
      <InvitationsSection canWrite={canWrite} />
      <ApiKeysSection canWrite={canWrite} />
    </>
  );
}
