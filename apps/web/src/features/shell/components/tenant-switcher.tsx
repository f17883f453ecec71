import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { Building2Icon, CheckIcon, ChevronsUpDownIcon, LoaderIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
import { ErrorDialog } from "@/components/error-dialog";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { currentTenantQuery } from "@/lib/current-tenant";
import { NewTenantDialog } from "./new-tenant-dialog";

export function TenantSwitcher() {
  const { data } = useQuery(currentTenantQuery());
  const queryClient = useQueryClient();
  const router = useRouter();
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
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
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" className="max-w-64 justify-between gap-2" aria-label="Switch tenant">
            {switching ? <LoaderIcon className="animate-spin" /> : <Building2Icon />}
            <span className="truncate">{current?.name ?? "No tenant"}</span>
            <ChevronsUpDownIcon className="opacity-60" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-64">
          <DropdownMenuLabel>Tenants</DropdownMenuLabel>
          {tenants.map((tenant) => (
            <DropdownMenuItem key={tenant.id} onSelect={() => void switchTo(tenant.id)}>
              <span className="flex-1 truncate">{tenant.name}</span>
              {tenant.id === current?.id && <CheckIcon className="text-primary" aria-label="Active tenant" />}
            </DropdownMenuItem>
          ))}
          {data?.user?.instanceAdmin && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => setCreating(true)}>
                <PlusIcon />
                New tenant
              </DropdownMenuItem>
            </>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <NewTenantDialog open={creating} onOpenChange={setCreating} onCreated={switchTo} />
      <ErrorDialog error={error} onClose={() => setError(null)} />
    </>
  );
}
