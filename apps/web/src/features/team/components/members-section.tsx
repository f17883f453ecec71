import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import type { Member } from "@palisade/api/gen/palisade/team/v1/team_pb";
import { useQuery } from "@tanstack/react-query";
import { LogOutIcon, SearchIcon, ShieldOffIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { PagePagination } from "@/components/page-pagination";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/date-time";
import { roleLabel } from "@/lib/role-label";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import {
  membersQuery,
  useChangeRole,
  useRemoveMember,
  useResetMemberMfa,
  useRevokeMemberSessions,
} from "../api/team-queries";
import { teamErrorText } from "../team-errors";
import { ASSIGNABLE_ROLES } from "../team-labels";
import { ConfirmTeamChange } from "./confirm-dialog";
import { InstanceAdminButton } from "./instance-admin-button";

const SEARCH_DEBOUNCE_MS = 300;

function RoleSelect({ member, onError }: { member: Member; onError: (error: unknown) => void }) {
  const change = useChangeRole();
  const onChange = async (value: string) => {
    onError(null);
    try {
      await change.mutateAsync({ memberId: member.id, role: Number(value) as Role });
    } catch (error) {
      onError(error);
    }
  };
  return (
    <Select value={String(member.role)} onValueChange={onChange} disabled={change.isPending}>
      <SelectTrigger className="w-40" aria-label={`Role of ${member.name || member.email}`}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ASSIGNABLE_ROLES.map((role) => (
          <SelectItem key={role} value={String(role)}>
            {roleLabel(role)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

function RemoveMemberDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const remove = useRemoveMember();
  return (
    <ConfirmTeamChange
      target={member}
      title={`Remove ${member?.name || member?.email}?`}
      description="They can no longer sign in to this tenant. Their past actions stay in the audit log; invite them again to give access back."
      confirmLabel="Remove member"
      pending={remove.isPending}
      change={(member) => remove.mutateAsync({ memberId: member.id })}
      onClose={onClose}
    />
  );
}

function ResetMfaDialog({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const reset = useResetMemberMfa();
  return (
    <ConfirmTeamChange
      target={member}
      title={`Reset MFA of ${member?.name || member?.email}?`}
      description="Their authenticator app and backup codes stop working, and the devices they trusted are forgotten. Until they set up an app again on their account page, their password or an e-mailed code alone signs them in."
      confirmLabel="Reset MFA"
      pending={reset.isPending}
      change={(member) => reset.mutateAsync({ memberId: member.id })}
      onClose={onClose}
    />
  );
}

function SignOutEverywhereDialog({
  member,
  onClose,
  onDone,
}: {
  member: Member | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const revoke = useRevokeMemberSessions();
  const who = member?.name || member?.email;
  return (
    <ConfirmTeamChange
      target={member}
      title={`Sign ${who} out everywhere?`}
      description="Every session they have ends now, on every device and in every tenant they belong to, and the devices they trusted for their authenticator app are forgotten. They stay a member and can sign in again at once: change their access too if their account may be in someone else's hands."
      confirmLabel="Sign out everywhere"
      pending={revoke.isPending}
      change={async (member) => {
        const { revoked } = await revoke.mutateAsync({ memberId: member.id });
        const sessions = revoked === 1 ? "1 session" : `${revoked} sessions`;
        onDone(`${member.name || member.email} is signed out everywhere (${sessions} ended).`);
      }}
      onClose={onClose}
    />
  );
}

export function MembersSection({ canWrite }: { canWrite: boolean }) {
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const debounced = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { data, isPending, error } = useQuery(membersQuery(page, debounced));
  const [removing, setRemoving] = useState<Member | null>(null);
  const [resettingMfa, setResettingMfa] = useState<Member | null>(null);
  const [signingOut, setSigningOut] = useState<Member | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [rowError, setRowError] = useState<unknown>(null);
  const position = data?.pagination?.position;
  const totalPages = position?.case === "totalPages" ? position.value : 1;

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          Everyone who can sign in to this tenant, with the role that decides what they may do.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="relative max-w-sm">
          <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
          <Input
            type="search"
            aria-label="Search members"
            placeholder="Search by name or e-mail"
            className="pl-8"
            value={search}
            maxLength={100}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </div>
        {notice && (
          <p role="status" className="text-sm">
            {notice}
          </p>
        )}
        {rowError ? (
          <p role="alert" className="text-sm text-destructive">
            {teamErrorText(rowError)}
          </p>
        ) : null}
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            {teamErrorText(error)}
          </p>
        ) : data && data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {debounced.length > 1 ? `No member matches “${debounced}”.` : "No members yet."}
          </p>
        ) : (
          <Table aria-label="Members" stackOnPhone>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>E-mail</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Joined</TableHead>
                <TableHead>Last sign-in</TableHead>
                <TableHead>Sign-in methods</TableHead>
                <TableHead>MFA</TableHead>
                {canWrite && <TableHead className="sr-only">Actions</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {data?.items.map((member) => (
                <TableRow key={member.id}>
                  <TableCell label="Name" className="font-medium">
                    {member.name || "—"}
                    {member.instanceAdmin && (
                      <Badge className="ml-2" variant="secondary">
                        Instance admin
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell label="E-mail" className="break-all">
                    {member.email}
                  </TableCell>
                  <TableCell label="Role">
                    {canWrite ? <RoleSelect member={member} onError={setRowError} /> : roleLabel(member.role)}
                  </TableCell>
                  <TableCell label="Joined" className="min-w-[7rem]">
                    {member.joinedAt ? formatDateTime(timestampDate(member.joinedAt)) : "—"}
                  </TableCell>
                  <TableCell label="Last sign-in" className="min-w-[7rem]">
                    {member.lastSignInAt ? formatDateTime(timestampDate(member.lastSignInAt)) : "Never"}
                  </TableCell>
                  <TableCell label="Sign-in methods">
                    {signInMethodsText(member.signInMethods, member.passkeyCount) || "—"}
                  </TableCell>
                  <TableCell label="MFA">{member.mfaEnabled ? "On" : "Off"}</TableCell>
                  {canWrite && (
                    <TableCell label="Actions" className="text-right whitespace-nowrap">
                      <InstanceAdminButton member={member} />
                      {member.mfaEnabled && (
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Reset MFA of ${member.name || member.email}`}
                          onClick={() => setResettingMfa(member)}
                        >
                          <ShieldOffIcon />
                        </Button>
                      )}
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Sign ${member.name || member.email} out everywhere`}
                        title="Sign out everywhere"
                        onClick={() => {
                          setNotice(null);
                          setSigningOut(member);
                        }}
                      >
                        <LogOutIcon />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Remove ${member.name || member.email}`}
                        onClick={() => setRemoving(member)}
                      >
                        <Trash2Icon />
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <PagePagination page={page} totalPages={totalPages} onPage={setPage} />
      </CardContent>
      <RemoveMemberDialog member={removing} onClose={() => setRemoving(null)} />
      <ResetMfaDialog member={resettingMfa} onClose={() => setResettingMfa(null)} />
      <SignOutEverywhereDialog member={signingOut} onClose={() => setSigningOut(null)} onDone={setNotice} />
    </Card>
  );
}

const SIGN_IN_METHOD_LABELS: Record<string, string> = {
  password: "Password",
  "email-otp": "E-mail code",
  "phone-otp": "Phone code",
  "magic-link": "Sign-in link",
  "enchanted-link": "Link to confirm",
  authenticator: "Authenticator app",
};

/** "Password", "E-mail code", or the provider's id as stored (e.g. "github"). */
function signInMethodLabel(method: string): string {
  return SIGN_IN_METHOD_LABELS[method] ?? method;
}

/** The member's methods, then their passkeys: "Password, 2 passkeys". */
function signInMethodsText(methods: string[], passkeyCount: number): string {
  const passkeys = passkeyCount === 1 ? "1 passkey" : passkeyCount > 1 ? `${passkeyCount} passkeys` : null;
  return [...methods.map(signInMethodLabel), ...(passkeys ? [passkeys] : [])].join(", ");
}
