import { Permission } from "@palisade/api/gen/palisade/auth/v1/auth_pb";
import { recordChange } from "../audit/audit-api";
import {
  createWaivers,
  deploymentsFor,
  findLiveBundleByKeyAnyTenant,
  tenantMaxWaiverHours,
  type WaiverLifecycleDeps,
  type WaiverView,
} from "../waiver/waiver-api";
import { ChatRefusal, hasPermission } from "./chat-decision";
import { memberByEmail } from "./notification-repository";

/** The longest reason a waiver may carry, as the contract bounds a comment. */
const MAX_REASON = 220;

export const CHAT_REQUEST_USAGE =
  "Usage: /waiver KEY HOURS reason, e.g. /waiver ABC2345 4 hotfix for the billing outage";

/** `KEY HOURS reason` from a slash command; the sentence of a refusal says how to write it. */
export function parseChatRequest(text: string): { key: string; hours: number; comment: string } {
  const match = /^\s*([A-Za-z0-9]{7})\s+(\d{1,3})\s+(.+)$/s.exec(text);
  if (!match) throw new ChatRefusal(CHAT_REQUEST_USAGE);
  const [, key, hours, comment] = match as unknown as [string, string, string, string];
  const trimmed = comment.trim();
  if (trimmed.length > MAX_REASON)
    throw new ChatRefusal(`The reason must not exceed ${MAX_REASON} characters.`);
  const h = Number(hours);
  if (h < 1 || h > 72) throw new ChatRefusal("A waiver lasts 1 to 72 hours.");
  return { key: key.toUpperCase(), hours: h, comment: trimmed };
}

/**
 * A waiver requested from chat (create source TEAMS) for a policy of the tenant whose chat app
 * was used, by the member with the chat user's e-mail address.
 */
export async function requestWaiverFromChat(
  deps: WaiverLifecycleDeps,
  input: { tenantId: string; requesterEmail: string; chatUser: string; text: string },
): Promise<WaiverView> {
  const { db } = deps;
  const request = parseChatRequest(input.text);
  const member = await memberByEmail(db, input.tenantId, input.requesterEmail);
  if (!member || !hasPermission(member.role, Permission.WAIVERS_REQUEST)) {
    throw new ChatRefusal(
      `${input.requesterEmail} may not request waivers in this Palisade tenant; ask an administrator to invite that address.`,
    );
  }
  const bundle = await findLiveBundleByKeyAnyTenant(db, request.key);
  if (!bundle || bundle.tenantId !== input.tenantId) {
    throw new ChatRefusal(
      `No policy of this tenant has the key ${request.key}. Check the key in the deny message.`,
    );
  }
  const maxHours = await tenantMaxWaiverHours(db, bundle.tenantId);
  if (request.hours > maxHours) {
    throw new ChatRefusal(`This tenant allows waivers of at most ${maxHours} hours; ask for fewer.`);
  }
  const targets = await deploymentsFor(db, bundle, undefined);
  const created = await createWaivers(deps, {
    bundle,
    rows: targets.map(({ deployment }) => ({
      deploymentId: deployment.id,
      deploymentScope: deployment.scopeExternalId,
      scope: null,
      resource: null,
      principalArn: null,
    })),
    createSource: "TEAMS",
    requester: { name: member.name, identifier: member.email, userId: member.userId },
    comment: request.comment,
    durationSeconds: request.hours * 3_600,
    approval: bundle.waiverApprovalMode !== "MANUAL" ? { approved: true } : { approved: false },
    reason: "waiver activated",
    audit: async (tx, waivers) => {
      for (const waiver of waivers) {
        await recordChange(
          tx,
          {
            actor: { tenantId: bundle.tenantId, type: "chat", id: member.userId, name: member.name },
            action: "WaiverService.Create",
            source: input.chatUser,
          },
          {
            target: { type: "waiver", id: waiver.id, name: waiver.policyKey },
            after: {
              policyKey: waiver.policyKey,
              status: waiver.status,
              durationSeconds: waiver.durationSeconds,
              comment: waiver.comment,
              via: "chat",
              chatUser: input.chatUser.slice(0, 200),
            },
          },
        );
      }
    },
  });
  const [first] = created.waivers;
  if (!first) throw new Error("The waiver was not stored.");
  return first;
}
