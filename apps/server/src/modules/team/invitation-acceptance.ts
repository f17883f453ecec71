import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { InvitationTokenState } from "@palisade/api/gen/palisade/team/v1/team_pb";
import type { Database } from "../../db/database";
import { invalidArgument } from "../../rpc/errors";
import { recordAuditAs } from "../audit/audit-api";
import { insertMembership } from "../tenant/tenant-api";
import {
  claimInvitation,
  findInvitationByTokenHashAnyTenant,
  type TokenInvitationRow,
  type Transaction,
} from "./invitation-repository";
import { hashInvitationToken } from "./invitation-token";

// Longer than any token we issue; a longer string is not worth hashing.
export function invitationTokenState(row: TokenInvitationRow | undefined, now: Date): InvitationTokenState {
  if (!row) return InvitationTokenState.UNKNOWN;
  if (row.status === "accepted") return InvitationTokenState.USED;
  if (row.status === "canceled" || row.status === "rejected") return InvitationTokenState.REVOKED;
  if (row.status !== "pending") return InvitationTokenState.UNKNOWN;
  return row.expiresAt.getTime() <= now.getTime() ? InvitationTokenState.EXPIRED : InvitationTokenState.VALID;
}

/** The invitation of a link's token, whatever its state; undefined for a token nobody issued. */
export async function findInvitationByToken(
  db: Database,
  token: string,
): Promise<TokenInvitationRow | undefined> {
  const trimmed = token.trim();
  if (!trimmed) return undefined;
  return findInvitationByTokenHashAnyTenant(db, hashInvitationToken(trimmed));
}

/** The invitation of the token if it can still be accepted; otherwise an error saying why not. */
export async function requireAcceptableInvitation(
  db: Database,
  token: string,
  now: Date,
): Promise<TokenInvitationRow> {
  if (!token.trim()) {
    const message = '"token" must not be empty';
    throw invalidArgument(message, [{ field: "token", message }]);
  }
  const row = await findInvitationByToken(db, token);
  refuseUnlessValid(row, now);
  return row;
}

function refuseUnlessValid(
  row: TokenInvitationRow | undefined,
  now: Date,
): asserts row is TokenInvitationRow {
  switch (invitationTokenState(row, now)) {
    case InvitationTokenState.VALID:
      return;
    case InvitationTokenState.EXPIRED:
      throw new ConnectError(
        `This invitation has expired; ask ${row?.inviterName} to send a new one.`,
        Code.FailedPrecondition,
      );
    case InvitationTokenState.USED:
      throw new ConnectError(
        "This invitation has already been used. Sign in to reach the tenant.",
        Code.FailedPrecondition,
      );
    case InvitationTokenState.REVOKED:
      throw new ConnectError(
        `This invitation was revoked; ask ${row?.inviterName} to send a new one.`,
        Code.FailedPrecondition,
      );
    default:
      throw new ConnectError(
        "This invitation link is not valid. Check that you opened the whole link, or ask the person who invited you to send a new one.",
        Code.NotFound,
      );
  }
}

/**
 * Uses up the invitation in the caller's transaction, before anything else is written: a second
 * acceptance of the same token, even a concurrent one, waits on this row and is then refused.
 */
export async function claimInvitationOrRefuse(
  tx: Transaction,
  row: TokenInvitationRow,
  now: Date,
): Promise<void> {
  if (!(await claimInvitation(tx, row.tenantId, row.id, now))) {
    throw new ConnectError(
      "This invitation has already been used. Sign in to reach the tenant.",
      Code.FailedPrecondition,
    );
  }
}

/** Makes the user a member with the invited role, in the transaction that claimed the invitation. */
export async function addInvitedMember(
  tx: Transaction,
  row: TokenInvitationRow,
  userId: string,
  now: Date,
): Promise<void> {
  await insertMembership(tx, row.tenantId, userId, row.role ?? "VIEWER", now);
}

/** The invitee, now a member, is the actor of the audit record of their acceptance. */
export async function auditAcceptance(
  tx: Transaction,
  ctx: HandlerContext,
  row: TokenInvitationRow,
  invitee: { id: string; name: string; email: string },
): Promise<void> {
  await recordAuditAs(
    tx,
    ctx,
    { tenantId: row.tenantId, type: "user", id: invitee.id, name: invitee.name || invitee.email },
    {
      target: { type: "invitation", id: row.id, name: row.email },
      after: { email: row.email, role: row.role, accepted: true },
    },
  );
}
