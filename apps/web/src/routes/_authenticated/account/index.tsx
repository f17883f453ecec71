import { createFileRoute } from "@tanstack/react-router";
import { AccountPage } from "@/features/account/components/account-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/account/")({
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context }) => {
    const { sessionsQuery } = await import("@/features/account/api/account-queries");
    await loadPageData(context.queryClient, sessionsQuery());
  },
  component: AccountPage,
});
