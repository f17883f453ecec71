import { useQueryClient } from "@tanstack/react-query";
import { useNavigate, useRouteContext } from "@tanstack/react-router";
import { forgetLastLogin } from "@/lib/last-login";

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { auth } = useRouteContext({ from: "__root__" });
  return async () => {
    // Loaded on use: the auth client is not part of any signed-in page's first load.
    const { authClient } = await import("@/lib/auth-client");
    await authClient.signOut();
    forgetLastLogin();
    auth.invalidate();
    queryClient.clear();
    await navigate({ to: "/" });
  };
}
