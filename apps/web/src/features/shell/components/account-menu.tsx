import type { GetCurrentResponse } from "@palisade/api/gen/palisade/tenant/v1/tenant_pb";
import { Link } from "@tanstack/react-router";
import { LogOutIcon, UserCogIcon } from "lucide-react";
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from "@/components/ui/dropdown-menu";
import { roleLabel } from "@/lib/role-label";
import { DeferredDropdown } from "./deferred-dropdown";
import type { DeferredMenuProps } from "./deferred-menu";

/** The user menu's items: who is signed in, with which role, their account page and sign-out. */
export function AccountMenu({
  name,
  current,
  onSignOut,
  ...menu
}: DeferredMenuProps & { name: string; current: GetCurrentResponse | undefined; onSignOut: () => void }) {
  return (
    <DeferredDropdown {...menu} align="end" className="w-64">
      <DropdownMenuLabel className="space-y-0.5">
        <span className="block truncate text-sm font-medium text-foreground">{name}</span>
        <span className="block truncate font-normal">{current?.user?.email}</span>
        {current && <span className="block font-normal">Role: {roleLabel(current.role)}</span>}
      </DropdownMenuLabel>
      <DropdownMenuSeparator />
      <DropdownMenuItem asChild>
        <Link to="/account">
          <UserCogIcon />
          Account
        </Link>
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={onSignOut}>
        <LogOutIcon />
        Sign out
      </DropdownMenuItem>
    </DeferredDropdown>
  );
}
