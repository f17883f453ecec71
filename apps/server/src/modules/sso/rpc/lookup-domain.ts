import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  LookupDomainRequest,
  LookupDomainResponseSchema,
} from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { domainOf } from "../../../auth/sso-auth";
import { findSsoForDomain } from "../sso-repository";
import type { SsoServiceDeps } from "../sso-settings";

/**
 * Public (rate limited per client address by the interceptor): whether the address's domain
 * signs in with single sign-on. Only verified domains answer yes; the tenant stays unnamed.
 */
export async function lookupDomain(
  deps: SsoServiceDeps,
  req: LookupDomainRequest,
  _ctx: HandlerContext,
): Promise<MessageInitShape<typeof LookupDomainResponseSchema>> {
  const domain = domainOf(req.email);
  if (!domain) return { sso: false, required: false };
  const sso = await findSsoForDomain(deps.db, domain);
  return { sso: Boolean(sso), required: Boolean(sso?.ssoRequired) };
}
