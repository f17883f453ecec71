import { createFileRoute } from "@tanstack/react-router";
import { invitationByTokenQuery } from "@/features/invitations/api/invitation-queries";
import { InvitationPage } from "@/features/invitations/components/invitation-page";
import { invitationView } from "@/features/invitations/invitation-view";
import { invitationParamsSchema } from "./-params";

export const Route = createFileRoute("/_external/invite/$token")({
  params: { parse: (raw) => invitationParamsSchema.parse(raw) },
  loader: async ({ context, params }) => {
    const [lookup, session] = await Promise.all([
      context.queryClient.ensureQueryData(invitationByTokenQuery(params.token)),
      context.auth.getSession(),
    ]);
    return { view: invitationView(lookup), signedInEmail: session?.user.email ?? null };
  },
  component: InvitationRoute,
});

function InvitationRoute() {
  const { token } = Route.useParams();
  const { view, signedInEmail } = Route.useLoaderData();
  return <InvitationPage token={token} view={view} signedInEmail={signedInEmail} />;
}
