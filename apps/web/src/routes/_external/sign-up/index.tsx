import { createFileRoute, redirect } from "@tanstack/react-router";
import { SignUpPage } from "@/features/auth/components/sign-up-page";
import { defaultLandingPath } from "@/lib/redirect-path";

export const Route = createFileRoute("/_external/sign-up/")({
  beforeLoad: async ({ context }) => {
    if (await context.auth.getSession()) throw redirect({ to: defaultLandingPath, replace: true });
  },
  component: SignUpPage,
});
