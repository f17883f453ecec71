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
    getSignInOptions: (req, ctx) => getSignInOptions(deps, req, ctx),
    lookupDomain: (req, ctx) => lookupDomain(deps, req, ctx),
    getSettings: (req, ctx) => getSettings(deps, req, ctx),
    updateSettings: (req, ctx) => updateSettings(deps, req, ctx),
    deleteSettings: (req, ctx) => deleteSettings(deps, req, ctx),
    checkDomainRecord: (req, ctx) => checkDomainRecord(deps, req, ctx),
    listDomainRequests: (req, ctx) => listDomainRequests(deps, req, ctx),
    setDomainVerified: (req, ctx) => setDomainVerified(deps, req, ctx),
  };
}
