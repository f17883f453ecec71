import type { ServiceImpl } from "@connectrpc/connect";
import type { SsoService } from "@palisade/api/gen/palisade/sso/v1/sso_pb";
import { checkDomainRecord } from "./rpc/check-domain-record";
import { deleteSettings } from "./rpc/delete-settings";
import { getSettings } from "./rpc/get-settings";
import { getSignInOptions } from "./rpc/get-sign-in-options";
import { listDomainRequests } from "./rpc/list-domain-requests";
import { lookupDomain } from "./rpc/lookup-domain";
import { setDomainVerified } from "./rpc/set-domain-verified";
import { updateSettings } from "./rpc/update-settings";
import type { SsoServiceDeps } from "./sso-settings";

export function createSsoService(deps: SsoServiceDeps): ServiceImpl<typeof SsoService> {
  return {
    getSignInOptions: () => getSignInOptions(deps),
    lookupDomain: (req) => lookupDomain(deps, req),
    getSettings: (_req, ctx) => getSettings(deps, ctx),
    updateSettings: (req, ctx) => updateSettings(deps, req, ctx),
    deleteSettings: (_req, ctx) => deleteSettings(deps, ctx),
    checkDomainRecord: (req, ctx) => checkDomainRecord(deps, req, ctx),
    listDomainRequests: (_req, ctx) => listDomainRequests(deps, ctx),
    setDomainVerified: (req, ctx) => setDomainVerified(deps, req, ctx),
  };
}
