import { createFileRoute } from "@tanstack/react-router";
import { WaiverRequestPage } from "@/features/waivers/components/waiver-request-page";
import { displayName } from "@/lib/user-display";
import { prefilledPolicyKey, waiverRequestSearchSchema } from "./-search";

export const Route = createFileRoute("/_external/req/")({
  validateSearch: waiverRequestSearchSchema,
  loader: async ({ context }) => {
    const session = await context.auth.getSession();
    return { userName: session ? displayName({ name: session.user.name }) || session.user.email : null };
  },
  component: WaiverRequestRoute,
});

function WaiverRequestRoute() {
  const { userName } = Route.useLoaderData();
  const { k } = Route.useSearch();
  return <WaiverRequestPage userName={userName} initialKey={prefilledPolicyKey(k)} />;
}
