import { useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate, useRouteContext } from "@tanstack/react-router";
import { Suspense, useEffect, useRef, useState } from "react";
import { useAfterFirstPaint } from "@/lib/after-first-paint";
import { fetchSession } from "@/lib/auth-context";
import { preloadableLazy } from "@/lib/preloadable-lazy";
import { startSessionRefresh } from "@/lib/session-refresh";
import { notifySignedOut, onSignedOut } from "@/lib/transport";

// Loaded once the page is on screen, so that it is there when a session ends.
const SessionEndedDialog = preloadableLazy(() =>
  import("./session-ended-dialog").then((m) => m.SessionEndedDialog),
);

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
  const painted = useAfterFirstPaint();
  useEffect(() => {
    if (painted) void SessionEndedDialog.preloaded();
  }, [painted]);

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

  if (!ended) return null;
  return (
    <Suspense fallback={null}>
      <SessionEndedDialog onSignInAgain={() => void signInAgain()} />
    </Suspense>
  );
}
