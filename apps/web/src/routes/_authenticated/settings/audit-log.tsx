import { createFileRoute } from "@tanstack/react-router";
import { auditSearchSchema } from "@/features/audit/audit-search";
import { AuditLogPage } from "@/features/audit/components/audit-log-page";
import { loadPageData } from "@/lib/page-data";

export const Route = createFileRoute("/_authenticated/settings/audit-log")({
  validateSearch: auditSearchSchema,
  loaderDeps: ({ search }) => search,
  // Imported on use so that the Connect runtime stays out of the first load of every page.
  loader: async ({ context, deps }) => {
    const { auditListQuery } = await import("@/features/audit/api/audit-queries");
    await loadPageData(context.queryClient, auditListQuery(deps));
  },
  component: AuditLogRoute,
});

function AuditLogRoute() {
  return <AuditLogPage search={Route.useSearch()} />;
}
