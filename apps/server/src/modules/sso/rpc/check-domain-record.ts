import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type {
  CheckDomainRecordRequest,
  CheckDomainRecordResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { requireCaller } from "../../../rpc/call-context";
import { recordAudit } from "../../audit/audit-api";
import { domainVerifiedElsewhere, findSsoDomain, setSsoDomainVerified } from "../sso-repository";
import { dnsRecordHolds, type SsoServiceDeps, ssoDomainMessage } from "../sso-settings";

/** Verifies a domain of the caller's tenant by its DNS TXT record. */
export async function checkDomainRecord(
  deps: SsoServiceDeps,
  req: CheckDomainRecordRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof CheckDomainRecordResponseSchema>> {
  const caller = requireCaller(ctx);
  const domainName = req.domain.trim().toLowerCase();
  const row = await findSsoDomain(deps.db, caller.tenantId, domainName);
  if (!row) throw new ConnectError(`${domainName} is not one of your single sign-on domains.`, Code.NotFound);
  if (row.verifiedAt) return { domain: ssoDomainMessage(row), message: "" };
  if (await domainVerifiedElsewhere(deps.db, caller.tenantId, domainName)) {
    throw new ConnectError(
      `${domainName} is verified by another tenant already. Ask an instance administrator.`,
      Code.FailedPrecondition,
    );
  }
  const verdict = await dnsRecordHolds(domainName, row.verificationToken);
  if (!verdict.ok) return { domain: ssoDomainMessage(row), message: verdict.message };
  const verified = await deps.db.transaction(async (tx) => {
    const saved = await setSsoDomainVerified(tx, caller.tenantId, domainName, "dns");
    await recordAudit(tx, ctx, {
      target: { type: "sso_domain", id: domainName, name: domainName },
      before: { verified: false },
      after: { verified: true, by: "dns" },
    });
    return saved;
  });
  return { domain: verified ? ssoDomainMessage(verified) : undefined, message: "" };
}
