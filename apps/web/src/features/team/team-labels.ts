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

/**
 * A date and time in the reader's time zone, with the zone named. `dateStyle`/`timeStyle` cannot be
 * combined with `timeZoneName`, so the parts are spelled out.
 */
export function formatDateTime(date: Date, timeZone?: string): string {
  return date.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    ...(timeZone ? { timeZone } : {}),
  });
}
