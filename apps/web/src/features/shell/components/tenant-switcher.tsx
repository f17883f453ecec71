import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { Building2Icon, ChevronsUpDownIcon, LoaderIcon } from "lucide-react";
import { Suspense, useState } from "react";
import { Button } from "@/components/ui/button";
import { currentTenantQuery } from "@/lib/current-tenant";
import { preloadableLazy } from "@/lib/preloadable-lazy";
import { useLatch } from "@/lib/use-latch";
import { deferredMenu } from "./deferred-menu";

const TenantMenu = deferredMenu(() => import("./tenant-menu").then((m) => m.TenantMenu));
// Mounted when first opened: neither is part of a page's first load.
const NewTenantDialog = preloadableLazy(() => import("./new-tenant-dialog").then((m) => m.NewTenantDialog));
const ErrorDialog = preloadableLazy(() => import("@/components/error-dialog").then((m) => m.ErrorDialog));

export function TenantSwitcher() {
  const { data } = useQuery(currentTenantQuery());
  const queryClient = useQueryClient();
  const router = useRouter();
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const createShown = useLatch(creating);
  const errorShown = useLatch(error !== null);
  const current = data?.tenant;
  const tenants = data?.tenants ?? [];

  async function switchTo(organizationId: string) {
    if (organizationId === current?.id) return;
    setSwitching(true);
    try {
      // The session keeps the choice; the next sign-in starts in this tenant again.
      // Loaded on use: the auth client is not part of any signed-in page's first load.
      const { authClient } = await import("@/lib/auth-client");
      const result = await authClient.organization.setActive({ organizationId });
      if (result.error) {
        throw new Error(
          `Could not switch tenant: ${result.error.message ?? "the server refused"}. Reload the page and try again.`,
        );
      }
      // Every cached answer belongs to the previous tenant: dropped, not merely marked stale, so
      // no page shows the previous tenant's data while it reads the new tenant's.
      await queryClient.resetQueries();
      await router.invalidate();
    } catch (e) {
      setError(e);
    } finally {
      setSwitching(false);
    }
  }

  return (
    <>
      <TenantMenu
        trigger={
          <Button variant="outline" className="max-w-64 justify-between gap-2" aria-label="Switch tenant">
            {switching ? <LoaderIcon className="animate-spin" /> : <Building2Icon />}
            <span className="truncate">{current?.name ?? "No tenant"}</span>
            <ChevronsUpDownIcon className="opacity-60" />
          </Button>
        }
        tenants={tenants}
        currentId={current?.id}
        canCreate={!!data?.user?.instanceAdmin}
        onSwitch={(tenantId) => void switchTo(tenantId)}
        onCreate={() => setCreating(true)}
      />
      {createShown && (
        <Suspense fallback={null}>
          <NewTenantDialog open={creating} onOpenChange={setCreating} onCreated={switchTo} />
        </Suspense>
      )}
      {errorShown && (
        <Suspense fallback={null}>
          <ErrorDialog error={error} onClose={() => setError(null)} />
        </Suspense>
      )}
    </>
  );
}
