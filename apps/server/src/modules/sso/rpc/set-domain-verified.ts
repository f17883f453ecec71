import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  SetDomainVerifiedRequest,
  SetDomainVerifiedResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { requireInstanceAdmin } from "../../../auth/instance-admin";
import { requireCaller } from "../../../rpc/call-context";
import { recordAuditAs } from "../../audit/audit-api";
import { domainVerifiedElsewhere, findSsoDomain, setSsoDomainVerified } from "../sso-repository";
import { type SsoServiceDeps, ssoDomainMessage } from "../sso-settings";

/** An instance administrator verifies a tenant's domain (having checked who owns it), or withdraws it. */
export async function setDomainVerified(
  deps: SsoServiceDeps,
  req: SetDomainVerifiedRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SetDomainVerifiedResponseSchema>> {
  await requireInstanceAdmin(deps.db, requireCaller(ctx), "verify single sign-on domains");
  const domainName = req.domain.trim().toLowerCase();
  const row = await findSsoDomain(deps.db, req.tenantId, domainName);
  if (!row) throw new ConnectError(`That tenant has not listed ${domainName}.`, Code.NotFound);
  if (req.verified && (await domainVerifiedElsewhere(deps.db, req.tenantId, domainName))) {
    throw new ConnectError(
      `${domainName} is verified by another tenant already; withdraw it there first.`,
      Code.FailedPrecondition,
    );
  }
  const updated = await deps.db.transaction(async (tx) => {
    const saved = await setSsoDomainVerified(
      tx,
      req.tenantId,
      domainName,
      req.verified ? "instance-admin" : null,
    );
    // Recorded in the tenant whose domain it is, by the instance administrator.
    const caller = requireCaller(ctx);
    await recordAuditAs(
      tx,
      ctx,
      { tenantId: req.tenantId, type: caller.kind, id: caller.id, name: caller.name },
      {
        target: { type: "sso_domain", id: domainName, name: domainName },
        before: { verified: Boolean(row.verifiedAt) },
        after: { verified: req.verified, by: "instance-admin" },
      },
    );
    return saved;
  });
  return { domain: updated ? ssoDomainMessage(updated) : undefined };
}
