import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { CheckCircle2Icon, LoaderIcon, XCircleIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { roleLabel } from "@/lib/role-label";
import { useInviteMember, useRefreshInvitations } from "../api/team-queries";
import { parseEmailAddresses } from "../email-addresses";
import { teamErrorText } from "../team-errors";
import { ASSIGNABLE_ROLES } from "../team-labels";

type InviteResult = { email: string; ok: true } | { email: string; ok: false; message: string };

export function InviteForm() {
  const id = useId();
  const [text, setText] = useState("");
  const [role, setRole] = useState<Role>(Role.VIEWER);
  const [touched, setTouched] = useState(false);
  const [results, setResults] = useState<InviteResult[]>([]);
  const [sending, setSending] = useState(false);
  const invite = useInviteMember();
  const refreshInvitations = useRefreshInvitations();
  const { addresses, errors } = parseEmailAddresses(text);
  const shownErrors = touched ? errors : [];

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (errors.length > 0 || addresses.length === 0) return;
    setSending(true);
    const outcome: InviteResult[] = [];
    // One call per address, one after the other, so that each address gets its own answer.
    for (const email of addresses) {
      try {
        await invite.mutateAsync({ email, role });
        outcome.push({ email, ok: true });
      } catch (error) {
        outcome.push({ email, ok: false, message: teamErrorText(error) });
      }
    }
    await refreshInvitations();
    setResults(outcome);
    setSending(false);
    // What failed stays in the field so it can be corrected and sent again.
    setText(
      outcome
        .filter((r) => !r.ok)
        .map((r) => r.email)
        .join("\n"),
    );
    setTouched(false);
  };

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Invite</CardTitle>
        <CardDescription>
          Each address gets an e-mail with a link to join this tenant with the role you choose.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-4" onSubmit={submit} noValidate>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-emails`}>E-mail addresses</Label>
            <Textarea
              id={`${id}-emails`}
              rows={3}
              value={text}
              placeholder="ann@example.com, bob@example.com"
              aria-invalid={shownErrors.length > 0}
              aria-describedby={`${id}-emails-hint`}
              onChange={(event) => setText(event.target.value)}
              onBlur={() => setTouched(true)}
            />
            {shownErrors.length > 0 ? (
              <ul id={`${id}-emails-hint`} className="space-y-0.5 text-sm text-destructive">
                {shownErrors.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            ) : (
              <p id={`${id}-emails-hint`} className="text-xs text-muted-foreground">
                Separate several addresses with commas, spaces or line breaks.
              </p>
            )}
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-role`}>Role</Label>
              <Select value={String(role)} onValueChange={(value) => setRole(Number(value) as Role)}>
                <SelectTrigger id={`${id}-role`} className="w-44">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {ASSIGNABLE_ROLES.map((r) => (
                    <SelectItem key={r} value={String(r)}>
                      {roleLabel(r)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <Button type="submit" disabled={sending || addresses.length === 0}>
              {sending && <LoaderIcon className="animate-spin" />}
              {addresses.length > 1 ? `Invite ${addresses.length} people` : "Invite"}
            </Button>
          </div>
          {results.length > 0 && (
            <ul aria-label="Invitation results" className="space-y-1 text-sm">
              {results.map((result) => (
                <li key={result.email} className="flex items-start gap-2 break-all">
                  {result.ok ? (
                    <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" />
                  ) : (
                    <XCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" />
                  )}
                  <span>
                    {result.email}: {result.ok ? "invitation sent" : result.message}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
