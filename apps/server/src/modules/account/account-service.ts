import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "@palisade/api/gen/palisade/account/v1/account_pb";
import type { AccountServiceDeps } from "./account-caller";
import { getSignUpOptions } from "./rpc/get-sign-up-options";
import { listSessions } from "./rpc/list-sessions";
import { listSignInHistory } from "./rpc/list-sign-in-history";
import { revokeAllSessions } from "./rpc/revoke-all-sessions";
import { revokeSession } from "./rpc/revoke-session";

export function createAccountService(deps: AccountServiceDeps): ServiceImpl<typeof AccountService> {
  return {
    getSignUpOptions: (req, ctx) => getSignUpOptions(deps, req, ctx),
    listSessions: (req, ctx) => listSessions(deps, req, ctx),
    revokeSession: (req, ctx) => revokeSession(deps, req, ctx),
    revokeAllSessions: (req, ctx) => revokeAllSessions(deps, req, ctx),
    listSignInHistory: (req, ctx) => listSignInHistory(deps, req, ctx),
  };
}
