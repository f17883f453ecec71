import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { postSignInPath } from "@/lib/redirect-path";
import { signInOptionsQuery } from "../api/sso-queries";

/**
 * Google One Tap (over the browser's FedCM where supported) when the instance has Google
 * configured; nothing otherwise. Google's script is loaded only then.
 */
export function GoogleOneTap({ redirectPath }: { redirectPath: string | undefined }) {
  const { data } = useQuery(signInOptionsQuery());
  const clientId = data?.googleOneTapClientId ?? "";
  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    void (async () => {
      const [{ createAuthClient }, { oneTapClient }] = await Promise.all([
        import("better-auth/react"),
        import("better-auth/client/plugins"),
      ]);
      if (cancelled) return;
      const client = createAuthClient({
        plugins: [oneTapClient({ clientId, promptOptions: { fedCM: true } })],
      });
      await client.oneTap({ callbackURL: postSignInPath(redirectPath) });
    })().catch(() => {
      // One Tap is optional: the Google button and the other methods remain.
    });
    return () => {
      cancelled = true;
    };
  }, [clientId, redirectPath]);
  return null;
}
