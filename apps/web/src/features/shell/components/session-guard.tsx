import { useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate, useRouteContext } from "@tanstack/react-router";
import { LogInIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { fetchSession } from "@/lib/auth-context";
import { startSessionRefresh } from "@/lib/session-refresh";
import { notifySignedOut, onSignedOut } from "@/lib/transport";

/**
 * Keeps the session alive while the signed-in area is open, and when it has ended (expired,
 * signed out elsewhere, "sign out everywhere") asks the user to sign in again and brings them
 * back to this page. Forms that keep a draft (lib/use-form-draft) are filled in again there; the
 * page stays as it is under the dialog, so other unsaved input can be copied before leaving it.
 */
export function SessionGuard() {
  const { auth, session } = useRouteContext({ from: "/_authenticated" });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const href = useLocation({ select: (location) => location.href });
  const [ended, setEnded] = useState(false);
  const hrefRef = useRef(href);
  hrefRef.current = href;

  useEffect(() => {
    const stopListening = onSignedOut(() => setEnded(true));
    const stopRefresh = startSessionRefresh(new Date(session.session.expiresAt), {
      refresh: () => fetchSession(),
      // Through the same signal as a refused call, so pages keep their drafts either way.
      onSignedOut: notifySignedOut,
    });
    return () => {
      stopListening();
      stopRefresh();
    };
  }, [session.session.expiresAt]);

  const signInAgain = async () => {
    auth.invalidate();
    await navigate({ to: "/", search: { redirect: { path: hrefRef.current } } });
    queryClient.clear();
  };

  return (
    <Dialog open={ended}>
      <DialogContent role="alertdialog" showClose={false}>
        <DialogHeader>
          <DialogTitle>Your session has ended</DialogTitle>
          <DialogDescription>
            You were signed out (the session expired or was ended from another device). Sign in again to
            continue on this page: the deploy and settings forms are filled in again as you left them. Copy
            any other unsaved text first if you need it.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button onClick={() => void signInAgain()}>
            <LogInIcon />
            Sign in again
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
