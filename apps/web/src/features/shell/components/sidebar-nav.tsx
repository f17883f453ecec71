import { Link } from "@tanstack/react-router";
import { usePermissions } from "@/lib/permissions";
import { cn } from "@/lib/utils";
import { navItems } from "../nav-items";

export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const permissions = usePermissions();
  return (
    <nav aria-label="Main" className="flex flex-col gap-1">
      {navItems
        .filter((item) => item.needs === null || permissions.has(item.needs))
        .map(({ to, label, icon: Icon }) => (
          <Link
            key={to}
            to={to}
            onClick={onNavigate}
            className={cn(
              "group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground transition-colors",
              "hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-white/70",
            )}
            activeProps={{
              "aria-current": "page",
              className:
                "bg-sidebar-accent text-sidebar-accent-foreground shadow-[inset_3px_0_0_var(--color-primary-foreground)]",
            }}
          >
            <Icon className="size-4 shrink-0 opacity-80" aria-hidden="true" />
            {label}
          </Link>
        ))}
    </nav>
  );
}
