import { createFileRoute } from "@tanstack/react-router";
import { BlockedAccessPage } from "@/features/blocked-access/components/blocked-access-page";

export const Route = createFileRoute("/_external/blocked-access/")({
  loader: async ({ context }) => {
    const session = await context.auth.getSession();
    return { signedInAs: session?.user.email ?? null };
  },
  component: BlockedAccessRoute,
});

function BlockedAccessRoute() {
  return <BlockedAccessPage signedInAs={Route.useLoaderData().signedInAs} />;
}
