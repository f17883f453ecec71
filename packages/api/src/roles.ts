import { Permission, Role } from "./gen/palisade/auth/v1/auth_pb";

const P = Permission;

const allPermissions: readonly Permission[] = Object.values(Permission).filter(
  (value): value is Permission => typeof value === "number" && value !== Permission.UNSPECIFIED,
);

const visitor: readonly Permission[] = [P.WAIVERS_REQUEST];

const viewer: readonly Permission[] = [
  P.POLICIES_READ,
  P.RECOMMENDATIONS_READ,
  P.WAIVERS_READ,
  P.EVENTS_READ,
  P.CONNECTORS_READ,
  P.USERS_READ,
  P.INITIATIVES_READ,
  P.WAIVERS_REQUEST,
];

const moderator: readonly Permission[] = [
  ...viewer,
  P.WAIVERS_UPDATE,
  P.EVENTS_DISMISS,
  P.RECOMMENDATIONS_WRITE,
];

const editor: readonly Permission[] = [
  ...moderator,
  P.POLICIES_WRITE_ALERT,
  P.POLICIES_WRITE_PREVENT,
  P.WAIVERS_WRITE,
  P.RECOMMENDATIONS_INSTALL,
  P.INITIATIVES_INSTANCE_WRITE,
];

// Integrations (CI pipelines, chat bots) read, raise alert-only guardrails and request
// waivers, but never enforce PREVENT or manage the tenant.
const integrator: readonly Permission[] = [
  P.POLICIES_READ,
  P.POLICIES_WRITE_ALERT,
  P.EVENTS_READ,
  P.WAIVERS_READ,
  P.WAIVERS_REQUEST,
  P.CONNECTORS_READ,
];

// Built-in roles and the permissions they grant (design.md, "Identity and permissions").
// UNSPECIFIED grants nothing, so an unknown or missing role is denied everything.
export const rolePermissions: Readonly<Record<Role, readonly Permission[]>> = {
  [Role.UNSPECIFIED]: [],
  [Role.VISITOR]: visitor,
  [Role.VIEWER]: viewer,
  [Role.MODERATOR]: moderator,
  [Role.EDITOR]: editor,
  // Every permission, AUDIT_READ (the audit log) among them, which no other role holds.
  [Role.ADMINISTRATOR]: allPermissions,
  [Role.INTEGRATOR]: integrator,
};

export function roleHasPermission(role: Role, permission: Permission): boolean {
  return rolePermissions[role]?.includes(permission) ?? false;
}
