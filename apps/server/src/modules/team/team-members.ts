import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import type { Auth } from "../../auth/auth";
import type { PasswordPolicy } from "../../auth/password-policy";
import type { Database } from "../../db/database";
import type { JobQueue } from "../../jobs/job-queue";
import type { Caller } from "../../rpc/call-context";
import { invalidArgument } from "../../rpc/errors";
import type { TeamLimits } from "./team-limits";
import { countAdministrators, findMember, type MemberRow } from "./team-repository";

export interface TeamServiceDeps {
  db: Database;
  auth: Auth;
  jobs: JobQueue;
  /** Origin of the links in invitation e-mails. */
  publicUrl: string;
  /** How long an invitation link stays valid. */
  invitationTtlHours: number;
  passwordPolicy: PasswordPolicy;
  limits: TeamLimits;
}

/** A member of the caller's tenant, or NotFound; an empty id finds nothing. */
export async function requireMember(db: Database, tenantId: string, memberId: string): Promise<MemberRow> {
  const row = memberId ? await findMember(db, tenantId, memberId) : undefined;
  if (!row) throw new ConnectError("No such member in this tenant.", Code.NotFound);
  return row;
}

/** An administrator may not demote or remove the tenant's last administrator. */
export async function keepAnAdministrator(
  db: Database,
  tenantId: string,
  row: MemberRow,
  change: string,
): Promise<void> {
  if (row.role === "ADMINISTRATOR" && (await countAdministrators(db, tenantId)) <= 1) {
    throw new ConnectError(
      `${row.name} is the last administrator of this tenant; make another member an administrator before you ${change}.`,
      Code.FailedPrecondition,
    );
  }
}

export function requireBuiltInRole(role: Role): void {
  if (role === Role.UNSPECIFIED || Role[role] === undefined) {
    const message = "Choose a role: VISITOR, VIEWER, MODERATOR, EDITOR, ADMINISTRATOR or INTEGRATOR.";
    throw invalidArgument(message, [{ field: "role", message }]);
  }
}

/** Invitations and API keys are made by a person, so that someone is accountable for them. */
export function requireUser(caller: Caller, what: string): void {
  if (caller.kind !== "user") {
    throw new ConnectError(
      `${what} must be done by a signed-in user, not with an API key.`,
      Code.PermissionDenied,
    );
  }
}
