import { createFileRoute, Outlet, redirect } from "@tanstack/react-router";
import { NotFound } from "@/components/not-found";
import { AccountOnlyLayout } from "@/features/shell/components/account-only-layout";
import { AuthenticatedLayout } from "@/features/shell/components/authenticated-layout";
import { authenticatedSearchSchema } from "./-search";

/** The one page of the signed-in area open to someone who cannot see the tenant's pages. */
const accountPath = "/account";
/** Where a member of a tenant that requires MFA sets up an authenticator app before anything else. */
const twoFactorSetupPath = "/two-factor-setup";

export const Route = createFileRoute("/_authenticated")({
  validateSearch: authenticatedSearchSchema,
  beforeLoad: async ({ context, location, search }) => {
    // The tenant is asked for beside the session rather than after it. Loaded on demand so the
    // Connect runtime stays out of the public pages' first load.
    const access = import("@/features/shell/api/load-current-tenant").then(({ loadCurrentTenant }) =>
      loadCurrentTenant(context.queryClient),
    );
    // Read by the loader; a visit without a session is sent away before that.
    access.catch(() => {});
    const session = await context.auth.getSession();
    if (!session) throw redirect({ to: "/", search: { redirect: { path: location.href } } });
    // A link naming a recommendation opens it, wherever it points (the create form keeps it as
    // the recommendation it installs).
    const opensRecommendation = /^\/(recommendations|policies\/create)(\/|$)/.test(location.pathname);
    if (search.recommendationId && !opensRecommendation)
      throw redirect({ to: "/recommendations", search: { recommendationId: search.recommendationId } });
    return { session, access };
  },
  loader: async ({ context, location }) => {
    const access = await context.access;
    if (access === "signed-out") {
      context.auth.invalidate();
      throw redirect({ to: "/", search: { redirect: { path: location.href } } });
    }
    const path = location.pathname.replace(/\/$/, "");
    if (access === "mfa-setup" && path !== accountPath && path !== twoFactorSetupPath)
      throw redirect({ to: twoFactorSetupPath });
    if (access === "granted" && path === twoFactorSetupPath) throw redirect({ to: accountPath });
    if (access !== "granted" && access !== "mfa-setup" && path !== accountPath)
      throw redirect({ to: "/blocked-access" });
    return { access };
  },
  component: AuthenticatedRoute,
  notFoundComponent: NotFound,
});

function AuthenticatedRoute() {
  const { access } = Route.useLoaderData();
  if (access === "no-tenant" || access === "blocked" || access === "mfa-setup") {
    return (
      <AccountOnlyLayout reason={access}>
        <Outlet />
      </AccountOnlyLayout>
    );
  }
  return (
    <AuthenticatedLayout>
      <Outlet />
    </AuthenticatedLayout>
  );
}
