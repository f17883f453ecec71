import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";

/** The roles a member, an invitee or an API key can be given, least power first. */
export const ASSIGNABLE_ROLES: readonly Role[] = [
  Role.VISITOR,
  Role.VIEWER,
  Role.MODERATOR,
  Role.EDITOR,
  Role.INTEGRATOR,
  Role.ADMINISTRATOR,
];
