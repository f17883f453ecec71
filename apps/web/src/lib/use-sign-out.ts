import { useQueryClient } from "@tanstack/react-query";
import { useNavigate, useRouteContext } from "@tanstack/react-router";
import { authClient } from "@/lib/auth-client";
import { forgetLastLogin } from "@/lib/last-login";

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { auth } = useRouteContext({ from: "__root__" });
  return async () => {
    await authClient.signOut();
    forgetLastLogin();
    auth.invalidate();
    queryClient.clear();
    await navigate({ to: "/" });
  };
}
