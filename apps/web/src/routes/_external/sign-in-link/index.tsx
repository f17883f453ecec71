import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { SignInLinkPage } from "@/features/auth/components/sign-in-link-page";

// A token longer than any issued, or an unknown error, reads as an unusable link.
const signInLinkSearchSchema = z.object({
  token: z.catch(z.optional(z.string().check(z.maxLength(256))), undefined),
  error: z.catch(z.optional(z.string().check(z.maxLength(64))), undefined),
  signedIn: z.catch(z.optional(z.coerce.number()), undefined),
});

export const Route = createFileRoute("/_external/sign-in-link/")({
  validateSearch: signInLinkSearchSchema,
  component: SignInLinkRoute,
});

function SignInLinkRoute() {
  const { token, error, signedIn } = Route.useSearch();
  const state = signedIn ? "signed-in" : error || !token ? "invalid" : "ready";
  return <SignInLinkPage state={state} token={token ?? ""} />;
}
