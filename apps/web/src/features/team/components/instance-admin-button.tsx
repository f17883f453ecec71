import type { Member } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { useQuery } from "@tanstack/react-query";
import { ShieldIcon, ShieldOffIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { currentTenantQuery } from "@/lib/current-tenant";
import { useSetInstanceAdmin } from "../api/team-queries";
import { ConfirmTeamChange } from "./confirm-dialog";

/**
 * For an instance administrator: makes a member an instance administrator (who may create
 * tenants and promote others), or takes it back. Nobody takes it from themselves.
 */
export function InstanceAdminButton({ member }: { member: Member }) {
  const { data } = useQuery(currentTenantQuery());
  const [asking, setAsking] = useState<Member | null>(null);
  const setInstanceAdmin = useSetInstanceAdmin();
  if (!data?.user?.instanceAdmin) return null;
  if (member.instanceAdmin && member.userId === data.user.id) return null;
  const who = member.name || member.email;
  const promote = !member.instanceAdmin;
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={
          promote ? `Make ${who} an instance administrator` : `Remove instance administration from ${who}`
        }
        title={promote ? "Make instance administrator" : "Remove instance administration"}
        onClick={() => setAsking(member)}
      >
        {promote ? <ShieldIcon /> : <ShieldOffIcon />}
      </Button>
      <ConfirmTeamChange
        target={asking}
        title={
          promote ? `Make ${who} an instance administrator?` : `Remove instance administration from ${who}?`
        }
        description={
          promote
            ? "They will be able to create tenants and make other users instance administrators, in addition to their role in each tenant."
            : "They can no longer create tenants or promote others; their roles in tenants stay as they are."
        }
        confirmLabel={promote ? "Make instance administrator" : "Remove instance administration"}
        pending={setInstanceAdmin.isPending}
        change={(target) => setInstanceAdmin.mutateAsync({ memberId: target.id, instanceAdmin: promote })}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
