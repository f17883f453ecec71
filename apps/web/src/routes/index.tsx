import { createFileRoute, redirect } from "@tanstack/react-router";
import { SignInPage } from "@/features/auth/components/sign-in-page";
import { postSignInPath, redirectTarget } from "@/lib/redirect-path";
import { signInSearchSchema } from "./-search";

export const Route = createFileRoute("/")({
  validateSearch: signInSearchSchema,
  beforeLoad: async ({ context, search }) => {
    if (await context.auth.getSession())
      throw redirect({ href: postSignInPath(redirectTarget(search.redirect)), replace: true });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const { redirect: target } = Route.useSearch();
  return <SignInPage redirectPath={redirectTarget(target)} />;
}
