import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { CheckIcon, CopyIcon, LoaderIcon, PlusIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { roleLabel } from "@/lib/role-label";
import { useCreateApiKey } from "../api/team-queries";
import { teamErrorText } from "../team-errors";
import { ASSIGNABLE_ROLES } from "../team-labels";

/** The limits the contract states for CreateApiKey. */
const NAME_MAX = 64;
const EXPIRY_MAX_DAYS = 365;

function validate(name: string, days: string): { name?: string; days?: string } {
  const problems: { name?: string; days?: string } = {};
  if (!name.trim()) problems.name = "Name is required";
  else if (name.trim().length > NAME_MAX) problems.name = `Name must not exceed ${NAME_MAX} characters`;
  if (days.trim()) {
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > EXPIRY_MAX_DAYS) {
      problems.days = `Expiry must be a whole number of days from 1 to ${EXPIRY_MAX_DAYS}`;
    }
  }
  return problems;
}

function SecretView({ name, secret }: { name: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const [copyError, setCopyError] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
      setCopyError(false);
    } catch {
      setCopyError(true);
    }
  };
  return (
    <>
      <DialogHeader>
        <DialogTitle>API key “{name}” created</DialogTitle>
        <DialogDescription>
          Copy the key now: it is shown only this once. Send it as{" "}
          <code>Authorization: Bearer &lt;key&gt;</code>.
        </DialogDescription>
      </DialogHeader>
      <div className="flex min-w-0 items-center gap-2">
        <code
          data-testid="api-key-secret"
          className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 text-xs break-all"
        >
          {secret}
        </code>
        <Button variant="outline" onClick={copy} aria-label="Copy the key">
          {copied ? <CheckIcon /> : <CopyIcon />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      {copyError && (
        <p role="alert" className="text-sm text-destructive">
          The browser did not allow copying; select the key and copy it by hand.
        </p>
      )}
      <DialogFooter>
        <DialogClose asChild>
          <Button>Done</Button>
        </DialogClose>
      </DialogFooter>
    </>
  );
}

export function CreateApiKeyDialog() {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>(Role.INTEGRATOR);
  const [days, setDays] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const create = useCreateApiKey();
  const problems = validate(name, days);
  const shown = submitted ? problems : {};

  const reset = () => {
    setName("");
    setRole(Role.INTEGRATOR);
    setDays("");
    setSubmitted(false);
    // The secret leaves memory with the dialog: it can never be shown again.
    setCreated(null);
    create.reset();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problems.name || problems.days) return;
    try {
      const answer = await create.mutateAsync({
        name: name.trim(),
        role,
        ...(days.trim() ? { expiresInDays: Number(days) } : {}),
      });
      setCreated({ name: answer.apiKey?.name ?? name.trim(), secret: answer.key });
    } catch {
      // Shown below the form from the mutation's state.
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm">
          <PlusIcon />
          Create API key
        </Button>
      </DialogTrigger>
      <DialogContent>
        {created ? (
          <SecretView name={created.name} secret={created.secret} />
        ) : (
          <form className="grid gap-4" onSubmit={submit} noValidate>
            <DialogHeader>
              <DialogTitle>Create API key</DialogTitle>
              <DialogDescription>
                An integration calls Palisade with the key as a member of this tenant with the role you
                choose.
              </DialogDescription>
            </DialogHeader>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-name`}>Name</Label>
              <Input
                id={`${id}-name`}
                value={name}
                placeholder="CI pipeline"
                aria-invalid={!!shown.name}
                onChange={(event) => setName(event.target.value)}
              />
              {shown.name && <p className="text-sm text-destructive">{shown.name}</p>}
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-role`}>Role</Label>
              <Select value={String(role)} onValueChange={(value) => setRole(Number(value) as Role)}>
                <SelectTrigger id={`${id}-role`}>
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
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-days`}>Expires after (days)</Label>
              <Input
                id={`${id}-days`}
                inputMode="numeric"
                value={days}
                placeholder="Never"
                aria-invalid={!!shown.days}
                onChange={(event) => setDays(event.target.value)}
              />
              {shown.days ? (
                <p className="text-sm text-destructive">{shown.days}</p>
              ) : (
                <p className="text-xs text-muted-foreground">Leave empty for a key that does not expire.</p>
              )}
            </div>
            {create.error && (
              <p role="alert" className="text-sm text-destructive">
                {teamErrorText(create.error)}
              </p>
            )}
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending && <LoaderIcon className="animate-spin" />}
                Create key
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
