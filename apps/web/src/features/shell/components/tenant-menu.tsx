import { CheckIcon, PlusIcon } from "lucide-react";
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from "@/components/ui/dropdown-menu";
import { DeferredDropdown } from "./deferred-dropdown";
import type { DeferredMenuProps } from "./deferred-menu";

/** The tenant switcher's menu: the caller's tenants, and a new tenant for an instance administrator. */
export function TenantMenu({
  tenants,
  currentId,
  canCreate,
  onSwitch,
  onCreate,
  ...menu
}: DeferredMenuProps & {
  tenants: { id: string; name: string }[];
  currentId: string | undefined;
  canCreate: boolean;
  onSwitch: (tenantId: string) => void;
  onCreate: () => void;
}) {
  return (
    <DeferredDropdown {...menu} align="start" className="w-64">
      <DropdownMenuLabel>Tenants</DropdownMenuLabel>
      {tenants.map((tenant) => (
        <DropdownMenuItem key={tenant.id} onSelect={() => onSwitch(tenant.id)}>
          <span className="flex-1 truncate">{tenant.name}</span>
          {tenant.id === currentId && <CheckIcon className="text-primary" aria-label="Active tenant" />}
        </DropdownMenuItem>
      ))}
      {canCreate && (
        <>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={onCreate}>
            <PlusIcon />
            New tenant
          </DropdownMenuItem>
        </>
      )}
    </DeferredDropdown>
  );
}
