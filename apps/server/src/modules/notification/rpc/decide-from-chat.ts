import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  DecideFromChatRequest,
  DecideFromChatResponseSchema,
} from "@palisade/api/gen/palisade/notification/v1/notification_pb";
import { WaiverStatus } from "@palisade/api/gen/palisade/waiver/v1/waiver_pb";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { waiverMessage } from "../../waiver/waiver-api";
import { ChatRefusal, decideFromChat as decideWaiverFromChat } from "../chat-decision";
import type { NotificationServiceDeps } from "../notification-deps";
import { spendNonce } from "../notification-repository";

const MAX_TOKEN = 1_000;

/** The Approve / Reject link of a Teams card, opened by a signed-in member. */
export async function decideFromChat(
  deps: NotificationServiceDeps,
  req: DecideFromChatRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof DecideFromChatResponseSchema>> {
  const caller = requireCaller(ctx);
  if (req.token.length === 0 || req.token.length > MAX_TOKEN) {
    throw invalidArgument(
      "The link's token is missing or too long; open the link from the Teams card again.",
    );
  }
  const claims = deps.tokens.read(req.token);
  if (!claims)
    throw new ConnectError("This link is not valid; open the newest message in Teams.", Code.InvalidArgument);
  if (claims.tenantId !== caller.tenantId) {
    throw new ConnectError(
      "This link belongs to another tenant: switch to that tenant in Palisade, then open the link again.",
      Code.PermissionDenied,
    );
  }
  const now = new Date();
  if (claims.expiresAt <= now.getTime()) {
    throw new ConnectError(
      "This link has expired; decide on the waiver from its policy's Waivers tab.",
      Code.FailedPrecondition,
    );
  }
  if (!caller.email) {
    throw new ConnectError("Only a person can decide on a waiver from a chat link.", Code.PermissionDenied);
  }
  if (!(await spendNonce(deps.db, caller.tenantId, claims.nonce, now))) {
    throw new ConnectError(
      "This link was already used; each Approve or Reject link works once.",
      Code.FailedPrecondition,
    );
  }
  try {
    const waiver = await decideWaiverFromChat(deps, {
      tenantId: caller.tenantId,
      waiverId: claims.waiverId,
      action: claims.action,
      approverEmail: caller.email,
      chatUser: `teams:${caller.email}`,
      source: "teams",
    });
    return {
      waiver: waiverMessage(waiver),
      decision: claims.action === "approve" ? WaiverStatus.ACTIVE : WaiverStatus.REJECTED,
    };
  } catch (error) {
    if (error instanceof ChatRefusal) throw new ConnectError(error.message, Code.PermissionDenied);
    throw error;
  }
}
