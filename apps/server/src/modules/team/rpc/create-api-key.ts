import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  CreateApiKeyRequest,
  CreateApiKeyResponseSchema,
} from "@palisade/api/gen/palisade/team/v1/team_pb";
import { roleName } from "../../../auth/roles";
import { requireCaller } from "../../../rpc/call-context";
import { invalidArgument } from "../../../rpc/errors";
import { recordAudit } from "../../audit/audit-api";
import { requireBuiltInRole, requireUser, type TeamServiceDeps } from "../team-members";
import { apiKeyMessage } from "../team-message";
import { deleteApiKey, listApiKeys } from "../team-repository";

export async function createApiKey(
  deps: TeamServiceDeps,
  req: CreateApiKeyRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CreateApiKeyResponseSchema>> {
  const { db, auth } = deps;
  const caller = requireCaller(ctx);
  requireUser(caller, "Creating an API key");
  const name = req.name.trim();
  if (name.length < 1) {
    const message = "API key name must not be empty.";
    throw invalidArgument(message, [{ field: "name", message }]);
  }
  requireBuiltInRole(req.role);
  const days = req.expiresInDays;
  // The longest lifetime (365 days) is a bound of the contract, checked before.
  if (days !== undefined && days < 1) {
    const message = "An API key expires after at least 1 day.";
    throw invalidArgument(message, [{ field: "expires_in_days", message }]);
  }
  const role = roleName(req.role);
  const created = await auth.api.createApiKey({
    body: {
      organizationId: caller.tenantId,
      userId: caller.id,
      name,
      metadata: { role, createdBy: caller.id },
      ...(days !== undefined ? { expiresIn: days * 86_400 } : {}),
    },
  });
  const [row] = (await listApiKeys(db, caller.tenantId)).filter((k) => k.id === created.id);
  if (!row) throw new ConnectError("The API key was not stored.", Code.Internal);
  // The sign-in library stores the key in writes of its own, outside any transaction of ours.
  // The key is shown to no one until its audit record is written; if the record cannot be
  // written, the key is deleted, so no key exists that the audit trail does not name.
  try {
    await db.transaction((tx) =>
      recordAudit(tx, ctx, {
        target: { type: "api_key", id: created.id, name },
        after: { name, role, expiresAt: row.expiresAt },
      }),
    );
  } catch (error) {
    await deleteApiKey(db, caller.tenantId, created.id);
    throw error;
  }
  return { apiKey: apiKeyMessage(row), key: created.key };
}
