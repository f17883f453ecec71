import { KeyRoundIcon, LoaderIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { authFailureText } from "@/lib/auth-error";
import { formatDateTime } from "@/lib/date-time";
import {
  PasskeyCallError,
  type PasskeyItem,
  useAddPasskey,
  useDeletePasskey,
  usePasskeys,
  useRenamePasskey,
} from "../api/passkey-queries";

export const MAX_PASSKEY_NAME_LENGTH = 60;

/** What a refused passkey call means for the person at the keyboard. */
export function passkeyFailureText(error: unknown): string {
  if (!(error instanceof PasskeyCallError)) return "Something went wrong. Try again.";
  const { failure } = error;
  if (failure.code === "ERROR_CEREMONY_ABORTED" || failure.code === "REGISTRATION_CANCELLED")
    return "The passkey was not created: the browser's prompt was closed or timed out. Try again.";
  if (failure.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return "This device already holds a passkey for your account. Use it, or delete it below first.";
  if (failure.code === "ERROR_INVALID_DOMAIN")
    return "Passkeys work only at this instance's address. Open Palisade at its public address and try again.";
  return authFailureText(failure, undefined);
}

function nameOf(passkey: PasskeyItem): string {
  return passkey.name?.trim() || "Unnamed passkey";
}

function PasskeyRow({ passkey, onError }: { passkey: PasskeyItem; onError: (error: unknown) => void }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name ?? "");
  const [confirming, setConfirming] = useState(false);
  const rename = useRenamePasskey();
  const remove = useDeletePasskey();

  const saveName = async (event: FormEvent) => {
    event.preventDefault();
    onError(null);
    try {
      await rename.mutateAsync({ id: passkey.id, name: name.trim() });
      setEditing(false);
    } catch (error) {
      onError(error);
    }
  };

  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <KeyRoundIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      {editing ? (
        <form onSubmit={saveName} className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
          <Label htmlFor={`${id}-name`} className="sr-only">
            New name for {nameOf(passkey)}
          </Label>
          <Input
            id={`${id}-name`}
            className="min-w-0 flex-1"
            value={name}
            maxLength={MAX_PASSKEY_NAME_LENGTH}
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" size="sm" disabled={!name.trim() || rename.isPending}>
            Save
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <>
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-medium break-words">
              {nameOf(passkey)}
              {passkey.backedUp && (
                <Badge variant="secondary" className="ml-2">
                  Synced
                </Badge>
              )}
            </p>
            <p className="text-muted-foreground">
              Added {passkey.createdAt ? formatDateTime(passkey.createdAt) : "—"}
            </p>
          </div>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Rename ${nameOf(passkey)}`}
            onClick={() => setEditing(true)}
          >
            Rename
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Delete ${nameOf(passkey)}`}
            onClick={() => setConfirming(true)}
          >
            Delete
          </Button>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete the passkey “${nameOf(passkey)}”?`}
        description="You can no longer sign in with it. The copy on your device stays until you remove it there; it will not work here again."
        confirmLabel="Delete passkey"
        destructive
        pending={remove.isPending}
        onConfirm={async () => {
          onError(null);
          try {
            await remove.mutateAsync(passkey.id);
          } catch (error) {
            onError(error);
          }
          setConfirming(false);
        }}
      />
    </li>
  );
}

export function PasskeysCard() {
  const id = useId();
  const { data, isPending, error } = usePasskeys();
  const add = useAddPasskey();
  const [name, setName] = useState("");
  const [failure, setFailure] = useState<unknown>(null);
  const [added, setAdded] = useState<string | null>(null);

  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setAdded(null);
    const chosen = name.trim() || "Passkey";
    try {
      await add.mutateAsync(chosen);
      setName("");
      setAdded(`Passkey “${chosen}” added. You can now sign in with it.`);
    } catch (caught) {
      setFailure(caught);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Passkeys</CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face or device PIN instead of a password. Each device or security key
          holds its own passkey.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {failure ? (
          <p role="alert" className="text-sm text-destructive">
            {passkeyFailureText(failure)}
          </p>
        ) : null}
        {added && (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {added}
          </p>
        )}
        {isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            {passkeyFailureText(error)}
          </p>
        ) : data?.length ? (
          <ul aria-label="Your passkeys" className="divide-y">
            {data.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} onError={setFailure} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">You have no passkeys yet.</p>
        )}
        <form onSubmit={onAdd} className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 space-y-2">
            <Label htmlFor={`${id}-name`}>Name of the new passkey</Label>
            <Input
              id={`${id}-name`}
              placeholder="e.g. Work laptop"
              value={name}
              maxLength={MAX_PASSKEY_NAME_LENGTH}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending && <LoaderIcon className="animate-spin" />}
            Add a passkey
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
