import { CheckIcon, PlusIcon } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { type DeferredMenuProps, useTriggerFocus } from "./deferred-menu";

/** The tenant switcher's menu: the caller's tenants, and a new tenant for an instance administrator. */
export function TenantMenu({
  trigger,
  defaultOpen,
  focusTrigger,
  tenants,
  currentId,
  canCreate,
  onSwitch,
  onCreate,
}: DeferredMenuProps & {
  tenants: { id: string; name: string }[];
  currentId: string | undefined;
  canCreate: boolean;
  onSwitch: (tenantId: string) => void;
  onCreate: () => void;
}) {
  const triggerRef = useTriggerFocus(focusTrigger);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild ref={triggerRef}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
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
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
