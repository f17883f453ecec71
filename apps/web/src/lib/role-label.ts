import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";

const labels: Record<Role, string> = {
  [Role.UNSPECIFIED]: "None",
  [Role.VISITOR]: "Visitor",
  [Role.VIEWER]: "Viewer",
  [Role.MODERATOR]: "Moderator",
  [Role.EDITOR]: "Editor",
  [Role.ADMINISTRATOR]: "Administrator",
  [Role.INTEGRATOR]: "Integrator",
};

export function roleLabel(role: Role): string {
  return labels[role] ?? "None";
}
