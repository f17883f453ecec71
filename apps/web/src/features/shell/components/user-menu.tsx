import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { LogOutIcon, UserCogIcon } from "lucide-react";
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
import { roleLabel } from "@/lib/role-label";
import { useSignOut } from "@/lib/use-sign-out";
import { displayName, initials } from "@/lib/user-display";

export function UserMenu() {
  const { data } = useQuery(currentTenantQuery());
  const signOut = useSignOut();
  const user = data?.user;
  const person = { name: user?.name, givenName: user?.givenName, familyName: user?.familyName };
  const name = displayName(person) || user?.email || "";

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-10 gap-2 px-2" aria-label={`Account menu for ${name}`}>
          <span
            className="flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
            data-testid="user-initials"
          >
            {initials(person) || "?"}
          </span>
          <span className="hidden max-w-40 truncate text-sm font-medium sm:inline">{name}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="space-y-0.5">
          <span className="block truncate text-sm font-medium text-foreground">{name}</span>
          <span className="block truncate font-normal">{user?.email}</span>
          {data && <span className="block font-normal">Role: {roleLabel(data.role)}</span>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/account">
            <UserCogIcon />
            Account
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void signOut()}>
          <LogOutIcon />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
