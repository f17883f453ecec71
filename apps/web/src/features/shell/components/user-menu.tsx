import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { currentTenantQuery } from "@/lib/current-tenant";
import { useSignOut } from "@/lib/use-sign-out";
import { displayName, initials } from "@/lib/user-display";
import { deferredMenu } from "./deferred-menu";

const AccountMenu = deferredMenu(() => import("./account-menu").then((m) => m.AccountMenu));

export function UserMenu() {
  const { data } = useQuery(currentTenantQuery());
  const signOut = useSignOut();
  const user = data?.user;
  const person = { name: user?.name, givenName: user?.givenName, familyName: user?.familyName };
  const name = displayName(person) || user?.email || "";

  return (
    <AccountMenu
      trigger={
        <Button variant="ghost" className="h-10 gap-2 px-2" aria-label={`Account menu for ${name}`}>
          <span
            className="flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
            data-testid="user-initials"
          >
            {initials(person) || "?"}
          </span>
          <span className="hidden max-w-40 truncate text-sm font-medium sm:inline">{name}</span>
        </Button>
      }
      name={name}
      current={data}
      onSignOut={() => void signOut()}
    />
  );
}
