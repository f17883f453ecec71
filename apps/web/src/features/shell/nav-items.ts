import {
  ActivityIcon,
  BellIcon,
  BookCheckIcon,
  BookLockIcon,
  LayoutDashboardIcon,
  LightbulbIcon,
  PlugZapIcon,
  SettingsIcon,
  ShieldCheckIcon,
  UsersIcon,
} from "lucide-react";
import { Permission } from "@/lib/permissions";

export const navItems = [
  { to: "/dashboard", label: "Dashboard", icon: LayoutDashboardIcon, needs: null },
  { to: "/policies", label: "Policies", icon: ShieldCheckIcon, needs: Permission.POLICIES_READ },
  { to: "/initiatives", label: "Initiatives", icon: BookCheckIcon, needs: Permission.INITIATIVES_READ },
  {
    to: "/recommendations",
    label: "Recommendations",
    icon: LightbulbIcon,
    needs: Permission.RECOMMENDATIONS_READ,
  },
  { to: "/events", label: "Events", icon: ActivityIcon, needs: Permission.EVENTS_READ },
  { to: "/connectors", label: "Connectors", icon: PlugZapIcon, needs: Permission.CONNECTORS_READ },
  { to: "/team-members", label: "Team members", icon: UsersIcon, needs: Permission.USERS_READ },
  // Every member may read the tenant's settings; changing them needs TENANT_SETTINGS_WRITE.
  { to: "/settings", label: "Settings", icon: SettingsIcon, needs: null },
  {
    to: "/settings/notifications",
    label: "Notifications",
    icon: BellIcon,
    needs: Permission.TENANT_SETTINGS_WRITE,
  },
  { to: "/settings/audit-log", label: "Audit log", icon: BookLockIcon, needs: Permission.AUDIT_READ },
] as const;

const readPermissions = [
  Permission.POLICIES_READ,
  Permission.INITIATIVES_READ,
  Permission.RECOMMENDATIONS_READ,
  Permission.EVENTS_READ,
  Permission.CONNECTORS_READ,
  Permission.USERS_READ,
  Permission.WAIVERS_READ,
];

/** The signed-in area shows tenant data only; a role without any read permission has nothing to see there. */
export function canUseApp(permissions: readonly Permission[]): boolean {
  return readPermissions.some((p) => permissions.includes(p));
}
