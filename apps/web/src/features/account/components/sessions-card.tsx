import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { AccountSession } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useRouteContext } from "@tanstack/react-router";
import { LogOutIcon, MonitorSmartphoneIcon } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { authClient } from "@/lib/auth-client";
import { formatDateTime } from "@/lib/date-time";
import { errorText } from "@/lib/error-text";
import { forgetLastLogin } from "@/lib/last-login";
import { sessionsQuery, useRevokeAllSessions, useRevokeSession } from "../api/account-queries";

function SessionRow({ session, onError }: { session: AccountSession; onError: (error: unknown) => void }) {
  const revoke = useRevokeSession();
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      <MonitorSmartphoneIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium">
          {session.device}
          {session.current && (
            <Badge variant="success" className="ml-2">
              This device
            </Badge>
          )}
        </p>
        <p className="text-muted-foreground">
          {session.ipAddress || "Unknown address"} · last active{" "}
          {session.lastActiveAt ? formatDateTime(timestampDate(session.lastActiveAt)) : "—"}
        </p>
      </div>
      {!session.current && (
        <Button
          size="sm"
          variant="outline"
          disabled={revoke.isPending}
          aria-label={`Sign out ${session.device} (${session.ipAddress || "unknown address"})`}
          onClick={async () => {
            onError(null);
            try {
              await revoke.mutateAsync({ sessionId: session.id });
            } catch (error) {
              onError(error);
            }
          }}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

export function SessionsCard() {
  const { data, isPending, error } = useQuery(sessionsQuery());
  const [rowError, setRowError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const revokeAll = useRevokeAllSessions();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { auth } = useRouteContext({ from: "__root__" });

  const signOutEverywhere = async () => {
    setRowError(null);
    try {
      await revokeAll.mutateAsync({});
    } catch (failure) {
      setConfirming(false);
      setRowError(failure);
      return;
    }
    // The session of this page ended with the others: clear what the browser keeps of it.
    await authClient.signOut().catch(() => undefined);
    forgetLastLogin();
    auth.invalidate();
    await navigate({ to: "/" });
    queryClient.clear();
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Where you are signed in</CardTitle>
        <CardDescription>Sign out a device you no longer use or do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {rowError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorText(rowError)}
          </p>
        ) : null}
        {isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : error ? (
          <p role="alert" className="text-sm text-destructive">
            {errorText(error)}
          </p>
        ) : (
          <ul aria-label="Active sessions" className="divide-y">
            {data?.sessions.map((session) => (
              <SessionRow key={session.id} session={session} onError={setRowError} />
            ))}
          </ul>
        )}
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <LogOutIcon />
          Sign out everywhere
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Sign out everywhere?"
          description="Every device signed in to your account is signed out, this one included. You then sign in again here."
          confirmLabel="Sign out everywhere"
          destructive
          pending={revokeAll.isPending}
          onConfirm={() => void signOutEverywhere()}
        />
      </CardContent>
    </Card>
  );
}
