import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { EmailConfirmedPage } from "@/features/auth/components/email-confirmed-page";

// Set by the confirmation link when it did not work (e.g. TOKEN_EXPIRED).
const confirmedSearchSchema = z.object({
  error: z.catch(z.optional(z.string().check(z.maxLength(64))), undefined),
});

export const Route = createFileRoute("/_external/email-confirmed/")({
  validateSearch: confirmedSearchSchema,
  loader: async ({ context }) => {
    // The link signed the new account in: read the session afresh.
    context.auth.invalidate();
    const session = await context.auth.getSession();
    return { signedInAs: session?.user.email ?? null };
  },
  component: EmailConfirmedRoute,
});

function EmailConfirmedRoute() {
  const { error } = Route.useSearch();
  return <EmailConfirmedPage error={error} signedInAs={Route.useLoaderData().signedInAs} />;
}
