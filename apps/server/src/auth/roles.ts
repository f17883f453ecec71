import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";

/** Role names as stored on a member or an API key ("ADMINISTRATOR", ...). */
export const ROLE_NAMES = [
  "VISITOR",
  "VIEWER",
  "MODERATOR",
  "EDITOR",
  "ADMINISTRATOR",
  "INTEGRATOR",
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export function parseRoleName(value: string | null | undefined): Role | undefined {
  const name = value?.toUpperCase();
  return ROLE_NAMES.includes(name as RoleName) ? Role[name as RoleName] : undefined;
}

export function roleName(role: Role): RoleName {
  const name = Role[role];
  if (!ROLE_NAMES.includes(name as RoleName)) throw new Error(`Not a built-in role: ${role}`);
  return name as RoleName;
}
