import { Code, ConnectError } from "@connectrpc/connect";
import { Permission, type Role } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { rolePermissions } from "@palisade/api/roles";
import { parseRoleName } from "../../auth/roles";
import type { Transaction } from "../../db/database";
import { recordChange } from "../audit/audit-api";
import {
  approveWaiver,
  findWaiver,
  rejectWaiver,
  requiresSeparateApprover,
  type WaiverLifecycleDeps,
  type WaiverView,
} from "../waiver/waiver-api";
import type { ChatAction } from "./chat-signature";
import { memberByEmail } from "./notification-repository";

/** Refused decisions: the sentence is what the chat user reads. */
export class ChatRefusal extends Error {
  override name = "ChatRefusal";
}

export interface ChatDecision {
  tenantId: string;
  waiverId: string;
  action: ChatAction;
  /** The Palisade member the chat user is, by e-mail address. */
  approverEmail: string;
  /** Who pressed the button, as the chat names them ("slack:U024BE7LH alice"). */
  chatUser: string;
  source: "slack" | "teams";
}

export function hasPermission(role: string, permission: Permission): boolean {
  const parsed = parseRoleName(role);
  return parsed !== undefined && rolePermissions[parsed as Role].includes(permission);
}

/**
 * Approves or rejects a waiver on behalf of a chat user: they must be a member of the tenant with
 * WAIVERS_UPDATE, and not the requester while the tenant separates duties. The audit record names
 * the member and the chat account that acted.
 */
export async function decideFromChat(deps: WaiverLifecycleDeps, decision: ChatDecision): Promise<WaiverView> {
  const { db } = deps;
  const member = await memberByEmail(db, decision.tenantId, decision.approverEmail);
  if (!member) {
    throw new ChatRefusal(
      `${decision.approverEmail} is not a member of this Palisade tenant, so the decision was not recorded. Ask an administrator to invite that address.`,
    );
  }
  if (!hasPermission(member.role, Permission.WAIVERS_UPDATE)) {
    throw new ChatRefusal(
      `Your Palisade role (${member.role}) may not approve or reject waivers (WAIVERS_UPDATE); the decision was not recorded.`,
    );
  }
  const waiver = await findWaiver(db, decision.tenantId, decision.waiverId);
  if (!waiver) throw new ChatRefusal("This waiver no longer exists in Palisade.");
  const own = waiver.requesterUserId === member.userId || waiver.requesterIdentifier === member.email;
  if (own && (await requiresSeparateApprover(db, decision.tenantId))) {
    throw new ChatRefusal(
      "You requested this waiver, so you cannot approve or reject it: someone else with the WAIVERS_UPDATE permission must decide.",
    );
  }
  const reviewer = { name: member.name, identifier: member.email };
  const audit = (tx: Transaction, decided: WaiverView) =>
    recordChange(
      tx,
      {
        actor: { tenantId: decision.tenantId, type: "chat", id: member.userId, name: member.name },
        action: decision.action === "approve" ? "WaiverService.Approve" : "WaiverService.Reject",
        source: decision.chatUser,
      },
      {
        target: { type: "waiver", id: decided.id, name: decided.policyKey },
        before: { status: waiver.status },
        after: {
          status: decided.status,
          policyKey: decided.policyKey,
          via: decision.source,
          chatUser: decision.chatUser.slice(0, 200),
          ...(decided.expiresAt ? { expiresAt: decided.expiresAt.toISOString() } : {}),
        },
      },
    );
  let updated: WaiverView;
  try {
    updated =
      decision.action === "approve"
        ? await approveWaiver(deps, waiver, reviewer, audit)
        : await rejectWaiver(deps, waiver, reviewer, audit);
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.FailedPrecondition) {
      throw new ChatRefusal(`Nothing changed: ${error.rawMessage}`);
    }
    throw error;
  }
  return updated;
}
