import { timestampDate } from "@bufbuild/protobuf/wkt";
import { DeliveryStatus, type Invitation } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { useQuery } from "@tanstack/react-query";
import { MailIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/date-time";
import { roleLabel } from "@/lib/role-label";
import { invitationsQuery, useResendInvitation, useRevokeInvitation } from "../api/team-queries";
import { teamErrorText } from "../team-errors";
import { ConfirmTeamChange } from "./confirm-dialog";

function DeliveryBadge({ invitation }: { invitation: Invitation }) {
  switch (invitation.deliveryStatus) {
    case DeliveryStatus.SENT:
      return <Badge variant="success">sent</Badge>;
    case DeliveryStatus.FAILED:
      // The mail server's answer is what the administrator needs to fix the address or the setup.
      return (
        <details className="max-w-64">
          <summary className="cursor-pointer" title={invitation.deliveryError}>
            <Badge variant="destructive">delivery failed</Badge>
          </summary>
          <p className="mt-1 text-xs break-words whitespace-normal text-destructive">
            {invitation.deliveryError || "The mail server gave no reason."}
          </p>
        </details>
      );
    case DeliveryStatus.PENDING:
      return (
        <Badge variant="warning" title={invitation.deliveryError || undefined}>
          {invitation.deliveryError ? "retrying" : "sending"}
        </Badge>
      );
    default:
      return <Badge variant="secondary">not sent</Badge>;
  }
}

function ResendButton({ invitation, onError }: { invitation: Invitation; onError: (e: unknown) => void }) {
  const resend = useResendInvitation();
  const [done, setDone] = useState(false);
  const run = async () => {
    onError(null);
    try {
      await resend.mutateAsync({ id: invitation.id });
      setDone(true);
    } catch (error) {
      onError(error);
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={run} disabled={resend.isPending}>
      <MailIcon />
      {done ? "Sent again" : "Resend"}
    </Button>
  );
}

function RevokeInvitationDialog({
  invitation,
  onClose,
}: {
  invitation: Invitation | null;
  onClose: () => void;
}) {
  const revoke = useRevokeInvitation();
  return (
    <ConfirmTeamChange
      target={invitation}
      title={`Revoke the invitation to ${invitation?.email}?`}
      description="The link in the e-mail stops working. You can invite the address again later."
      confirmLabel="Revoke invitation"
      pending={revoke.isPending}
      change={(invitation) => revoke.mutateAsync({ id: invitation.id })}
      onClose={onClose}
    />
  );
}

export function InvitationsSection({ canWrite }: { canWrite: boolean }) {
  const { data, isPending, error } = useQuery(invitationsQuery());
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [rowError, setRowError] = useState<unknown>(null);
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
        <CardDescription>
          Sent and not yet accepted. Resending makes a new link; the old one stops working.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {rowError ? (
          <p role="alert" className="text-sm text-destructive">
            {teamErrorText(rowError)}
          </p>
        ) : null}
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            {teamErrorText(error)}
          </p>
        ) : !data || data.invitations.length === 0 ? (
          <p className="text-sm text-muted-foreground">No pending invitations.</p>
        ) : (
          <Table aria-label="Pending invitations" stackOnPhone>
            <TableHeader>
              <TableRow>
                <TableHead>E-mail</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Sent</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>Delivery</TableHead>
                {canWrite && <TableHead className="sr-only">Actions</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.invitations.map((invitation) => (
                <TableRow key={invitation.id}>
                  <TableCell label="E-mail" className="font-medium whitespace-nowrap">
                    {invitation.email}
                  </TableCell>
                  <TableCell label="Role" className="whitespace-nowrap">
                    {roleLabel(invitation.role)}
                  </TableCell>
                  <TableCell label="Sent" className="whitespace-nowrap">
                    {invitation.createdAt ? formatDateTime(timestampDate(invitation.createdAt)) : "—"}
                    {invitation.invitedBy && (
                      <span className="block text-xs text-muted-foreground">by {invitation.invitedBy}</span>
                    )}
                  </TableCell>
                  <TableCell label="Expires" className="whitespace-nowrap">
                    {invitation.expiresAt ? formatDateTime(timestampDate(invitation.expiresAt)) : "—"}
                  </TableCell>
                  <TableCell label="Delivery">
                    <DeliveryBadge invitation={invitation} />
                  </TableCell>
                  {canWrite && (
                    <TableCell label="Actions">
                      <div className="flex justify-end gap-1">
                        <ResendButton invitation={invitation} onError={setRowError} />
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Revoke the invitation to ${invitation.email}`}
                          onClick={() => setRevoking(invitation)}
                        >
                          <Trash2Icon />
                        </Button>
                      </div>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <RevokeInvitationDialog invitation={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}
