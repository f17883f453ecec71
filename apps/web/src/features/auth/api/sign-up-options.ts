import type { AccountService } from "@palisade/api/gen/palisade/account/v1/account_pb";
import { queryOptions } from "@tanstack/react-query";
import { createJsonClient } from "@/lib/connect-json";
import type { ResponseJson } from "@/lib/connect-json-types";

/** The sign-in and sign-up pages are public first loads: the small JSON client. */
const accountRpc = createJsonClient<typeof AccountService>("palisade.account.v1.AccountService");

export type SignUpOptionsJson = ResponseJson<typeof AccountService, "getSignUpOptions">;

/** Whether the server allows open sign-up (ALLOW_SIGN_UP); it changes only with a restart. */
export function signUpOptionsQuery() {
  const input = {};
  return queryOptions({
    queryKey: accountRpc.queryKey("getSignUpOptions", input),
    queryFn: ({ signal }) => accountRpc.call("getSignUpOptions", input, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
